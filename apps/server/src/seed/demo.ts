import { readFile } from "node:fs/promises";
import { DAY_MS, isoDate, type Role, type SelfRegisterRole, type TaskCategory } from "@taskmint/shared";
import type { Database } from "../db/client.ts";
import { submitWork } from "../modules/submissions/service.ts";
import { createTask } from "../modules/tasks/service.ts";
import { markEmailVerified, registerUser } from "../modules/users/service.ts";

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

const illustration = (name: string) =>
  readFile(new URL(`./illustrations/${name}.svg`, import.meta.url), "utf8");

/** A drawing from ./illustrations as a PNG, so demo tasks and accounts have real stored images. */
async function picture(svg: string): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A person's silhouette on the account's colour. */
async function avatar(colour: string): Promise<Buffer> {
  return picture((await illustration("person")).replace("COLOUR", colour));
}

const DEMO_TASKS: {
  title: string;
  workers: number;
  pay: number;
  category: TaskCategory;
  minutes: number;
  drawing: string;
  info: string;
}[] = [
  {
    title: "Watch and rate a 2-minute product video",
    workers: 3,
    pay: 5,
    category: "writing_reviews",
    minutes: 4,
    drawing: "video",
    info: "Paste the rating you gave and one sentence on why.",
  },
  {
    title: "Follow our page and share the latest post",
    workers: 4,
    pay: 3,
    category: "social_media",
    minutes: 2,
    drawing: "share",
    info: "A link to your share.",
  },
  {
    title: "Test a sign-up form and report any bug",
    workers: 2,
    pay: 8,
    category: "app_testing",
    minutes: 10,
    drawing: "form",
    info: "Steps you took and what went wrong, if anything.",
  },
];

/** Demo accounts and tasks, made through the same service code as real ones. */
export async function seedDemo(db: Database, now: Date): Promise<DemoAccount[]> {
  const made: DemoAccount[] = [];
  const ids: Record<string, string> = {};
  for (const user of DEMO_USERS) {
    const created = await registerUser(
      db,
      { name: user.name, email: user.email, role: user.role, password: DEMO_PASSWORD },
      await avatar(user.colour),
    );
    await markEmailVerified(db, created.id);
    ids[user.role] = created.id;
    made.push({ role: user.role, email: user.email, password: DEMO_PASSWORD });
  }
  const buyerId = ids.buyer ?? "";
  const inTwoWeeks = isoDate(new Date(now.getTime() + 14 * DAY_MS));
  const tasks = [];
  for (const task of DEMO_TASKS) {
    const fields = {
      task_title: task.title,
      task_detail: `${task.title}. Take your time and follow the instructions carefully.`,
      submission_info: task.info,
      required_workers: task.workers,
      payable_amount: task.pay,
      completion_date: inTwoWeeks,
      category: task.category,
      estimated_minutes: task.minutes,
      time_limit_minutes: 60,
      proof_images: 0,
      min_approval_rate: 0,
      min_level: "new" as const,
    };
    tasks.push(
      await createTask(db, { buyerId, fields, image: await picture(await illustration(task.drawing)), now }),
    );
  }
  const first = tasks[0];
  if (first)
    await submitWork(db, {
      workerId: ids.worker ?? "",
      taskId: first.id,
      details: "Rated it 4/5: clear, but the music was too loud.",
      now,
      autoApproveDays: 3,
    });
  return made;
}
