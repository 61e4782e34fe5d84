import sharp from "sharp";
import type { Role, SelfRegisterRole } from "@taskmint/shared";
import type { Database } from "../db/client.ts";
import { registerUser } from "../modules/users/service.ts";

export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
}

const DEMO_USERS: { name: string; email: string; role: SelfRegisterRole; colour: string }[] = [
  { name: "Wendy Worker", email: "worker@taskmint.local", role: "worker", colour: "#0f766e" },
  { name: "Bashir Buyer", email: "buyer@taskmint.local", role: "buyer", colour: "#7c3aed" },
];
const DEMO_PASSWORD = "Demo1234";

/** A plain coloured square, so demo accounts have a real stored photo. */
function avatar(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 256, height: 256, channels: 3, background: colour } }).png().toBuffer();
}

/** Demo accounts made through the same registration path as real users. */
export async function seedDemo(db: Database): Promise<DemoAccount[]> {
  const made: DemoAccount[] = [];
  for (const user of DEMO_USERS) {
    await registerUser(db, { name: user.name, email: user.email, role: user.role, password: DEMO_PASSWORD }, await avatar(user.colour));
    made.push({ role: user.role, email: user.email, password: DEMO_PASSWORD });
  }
  return made;
}
