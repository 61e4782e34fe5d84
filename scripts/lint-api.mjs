// Lints the API description with Redocly's recommended rules (redocly.yaml): writes the document
// the app serves to .cache/openapi.json (no server listening), then fails on any error or
// warning that .redocly.lint-ignore.yaml does not list with its reason. Decision 021.
import { execFileSync } from "node:child_process";

const file = ".cache/openapi.json";
const bin = (name) => `node_modules/.bin/${name}`;
execFileSync(bin("tsx"), ["apps/server/src/scripts/openapi.ts", file], { stdio: "inherit" });
let output;
try {
  output = execFileSync(bin("redocly"), ["lint", file, "--format=json"], { encoding: "utf8" });
} catch (error) {
  // Exit code 1 on errors; the report is still on stdout.
  output = error.stdout;
  if (!output) throw error;
}
const report = JSON.parse(output);
for (const problem of report.problems) {
  const where = problem.location.map((location) => location.pointer).join(", ");
  console.log(`${problem.severity} ${problem.ruleId} at ${where}: ${problem.message}`);
}
const { errors, warnings, ignored } = report.totals;
console.log(`API description: ${errors} errors, ${warnings} warnings, ${ignored} ignored with a reason`);
if (errors + warnings > 0) process.exit(1);
