// npm run seed:large -- --tasks 1000000 --users 100000 [--submissions 2000000]
import { parseArgs } from "node:util";
import { checkLedger } from "../modules/ledger/service.ts";
import { seedLarge } from "../seed/large.ts";
import { withDatabase } from "./database.ts";

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "10000" },
    users: { type: "string", default: "1000" },
    submissions: { type: "string" },
  },
});
const tasks = Number(values.tasks);
const users = Number(values.users);
const submissions = Number(values.submissions ?? tasks * 2);
if (![tasks, users, submissions].every((value) => Number.isInteger(value) && value > 0) || users < 10) {
  console.error("Usage: npm run seed:large -- --tasks N --users M (M >= 10) [--submissions K]");
  process.exit(2);
}
// A million rows a statement: no statement timeout.
await withDatabase(
  async (db) => {
    const started = Date.now();
    await seedLarge(db, { tasks, users, submissions }, new Date());
    console.log(
      `Seeded ${tasks} tasks, ${users} users and up to ${submissions} submissions in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const report = await checkLedger(db);
    console.log(`Ledger ${report.ok ? "balanced" : "BROKEN"}: ${JSON.stringify(report)}`);
    process.exitCode = report.ok ? 0 : 1;
  },
  { unhurried: true },
);
