// Fails when the JavaScript the Home page loads first (the entry script and its
// modulepreloads in apps/web/dist/index.html) exceeds the budget, gzipped.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

// 150 KB until issue 33: the endpoint declarations and the answers' checks add about 10 KB (decision 032).
const BUDGET_BYTES = 160 * 1024;
const dist = path.resolve(import.meta.dirname, "../apps/web/dist");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const files = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g),
].map((match) => match[1]);
if (files.length === 0) {
  console.error("No scripts found in apps/web/dist/index.html: build the web app first.");
  process.exit(1);
}
let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(path.join(dist, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const verdict = total <= BUDGET_BYTES ? "within" : "OVER";
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  initial JavaScript, gzipped: ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
);
process.exit(total <= BUDGET_BYTES ? 0 : 1);
