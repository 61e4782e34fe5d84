// npm run load -- [--seconds 60] [--concurrency 16] [--compare <git ref> [--rounds 2]] [--database-url <url>]
// The mixed load (bench/mix.ts) against a real server process on PGlite in a temp dir, or on
// DATABASE_URL (a fresh database made beside it for each run), or on --database-url as it is (a
// database seeded with `npm run seed:large`: the mix at scale; nothing is dropped after).
// Prints the rate, the latency percentiles and the count of 5xx answers per action.
// With --compare, runs this version and <ref> (built in a scratch work tree) in alternating
// rounds, each on a fresh database, and prints both side by side with their ratio: the machine
// is noisy, and alternating rounds are what make the ratio worth reading.
import { parseArgs } from "node:util";
import { figures, runMix, type MixResult } from "./mix.ts";
import { freshDatabase, prepareOtherVersion, type OtherVersion } from "./other-version.ts";
import { startServer } from "./support.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    concurrency: { type: "string", default: "16" },
    compare: { type: "string" },
    rounds: { type: "string", default: "2" },
    "database-url": { type: "string" },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const seededUrl = values["database-url"];
const databaseUrl = seededUrl ?? (process.env.DATABASE_URL || undefined);
if (seededUrl && values.compare)
  throw new Error("--compare runs each version on a fresh database: leave out --database-url");
const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** CPU milliseconds per request of the server process and of PostgreSQL, over runs. */
function cpuPerRequest(runs: MixResult[]): string {
  const requests = runs.reduce((sum, run) => sum + [...run.samples.values()].flat().length, 0);
  if (runs.some((run) => run.cpu === null) || requests === 0) return "";
  const per = (seconds: number) => fixed((seconds * 1000) / requests, 2);
  const server = runs.reduce((sum, run) => sum + run.cpu!.server, 0);
  const database = runs.reduce((sum, run) => sum + run.cpu!.database, 0);
  return `; CPU ms a request: server ${per(server)}${databaseUrl ? `, PostgreSQL ${per(database)}` : ""}`;
}

const versions: OtherVersion[] = [{ label: "this", startServer }];
if (values.compare) versions.push(await prepareOtherVersion(values.compare));
const results = versions.map(() => [] as MixResult[]);

for (let round = 0; round < (values.compare ? rounds : 1); round += 1) {
  // ABBA: each version goes first in every other round, so a drift of the machine cancels out.
  const order = round % 2 === 0 ? versions.keys() : [...versions.keys()].reverse();
  for (const index of order) {
    const version = versions[index]!;
    const name = seededUrl
      ? decodeURIComponent(new URL(seededUrl).pathname.slice(1))
      : `taskmint_load_${round}_${index}`;
    const database = seededUrl
      ? { url: seededUrl, drop: async () => undefined }
      : await freshDatabase(databaseUrl, name);
    const server = await version.startServer({ databaseUrl: database.url });
    const result = await runMix(
      { base: server.base, pid: server.process.pid, database: database.url ? name : undefined },
      seconds,
      concurrency,
    );
    await server.stop();
    await database.drop();
    results[index]!.push(result);
    const all = figures([result]).get("ALL")!;
    console.log(
      `round ${round + 1}, ${version.label}: ${fixed(all.perSecond)} req/s, p99 ${fixed(all.p99)} ms, ` +
        `${all.serverErrors} 5xx, ledger ${result.ledgerBalanced ? "balanced" : "NOT BALANCED"}${cpuPerRequest([result])}`,
    );
  }
}

const [mine, theirs] = results.map((runs) => figures(runs));
if (!theirs) {
  console.table(
    [...mine!].map(([action, row]) => ({
      action,
      requests: row.requests,
      "req/s": fixed(row.perSecond),
      p50: fixed(row.p50),
      p99: fixed(row.p99),
      "4xx": row.clientErrors,
      "5xx": row.serverErrors,
    })),
  );
} else {
  const other = versions[1]!.label;
  const ratio = (a?: number, b?: number) => (a && b ? fixed(a / b, 3) : "-");
  console.log(`\n${rounds} rounds of ${seconds} s each, ${concurrency} clients; ratios are this / ${other}.`);
  versions.forEach((version, index) => console.log(`${version.label}${cpuPerRequest(results[index]!)}`));
  console.table(
    [...new Set([...mine!.keys(), ...theirs.keys()])].map((action) => {
      const a = mine!.get(action);
      const b = theirs.get(action);
      return {
        action,
        "req/s": fixed(a?.perSecond ?? 0),
        [`req/s ${other}`]: fixed(b?.perSecond ?? 0),
        "req/s ratio": ratio(a?.perSecond, b?.perSecond),
        p50: fixed(a?.p50 ?? 0),
        [`p50 ${other}`]: fixed(b?.p50 ?? 0),
        p99: fixed(a?.p99 ?? 0),
        [`p99 ${other}`]: fixed(b?.p99 ?? 0),
        "p99 ratio": ratio(a?.p99, b?.p99),
        "5xx": (a?.serverErrors ?? 0) + (b?.serverErrors ?? 0),
      };
    }),
  );
}
const failed =
  results.flat().some((run) => !run.ledgerBalanced) ||
  [mine, theirs].some((table) => table?.get("ALL")?.serverErrors);
process.exit(failed ? 1 : 0);
