// npm run create-admin -- --email a@b.c --password Secret12 [--name "Ann Admin"]
// Creates that admin, or makes an existing account an admin.
import { parseArgs } from "node:util";
import { emailSchema, passwordSchema } from "@taskmint/shared";
import { ensureAdmin } from "../modules/users/service.ts";
import { withDatabase } from "./database.ts";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
});
const email = emailSchema.safeParse(values.email ?? "");
const password = passwordSchema.safeParse(values.password ?? "");
if (!email.success || !password.success) {
  console.error("Usage: npm run create-admin -- --email <email> --password <password> [--name <name>]");
  if (!email.success) console.error(`  email: ${email.error.issues[0]?.message}`);
  if (!password.success) console.error(`  password: ${password.error.issues[0]?.message}`);
  process.exit(2);
}

const result = await withDatabase((db) =>
  ensureAdmin(db, { email: email.data, password: password.data, name: values.name }),
);
console.log(
  result.created ? `Admin ${email.data} created.` : `${email.data} already existed and is now an admin.`,
);
