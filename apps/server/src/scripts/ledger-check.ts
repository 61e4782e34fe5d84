// npm run ledger:check: prints the ledger report and exits 1 when an invariant is broken.
import { openDatabase } from "../db/client.ts";
import { loadEnv } from "../env.ts";
import { checkLedger } from "../modules/ledger/service.ts";

const env = loadEnv();
// It reads every transfer: on a large database that may take longer than a request may.
const database = await openDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  statementTimeoutMs: 0,
});
try {
  await database.migrate();
  const report = await checkLedger(database.db);
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await database.close();
}
