// npm run ledger:check: prints the ledger report and exits 1 when an invariant is broken.
import { checkLedger } from "../modules/ledger/service.ts";
import { withDatabase } from "./database.ts";

// It reads every transfer: on a large database that may take longer than a request may.
const report = await withDatabase((db) => checkLedger(db), { unhurried: true });
console.log(JSON.stringify(report, null, 2));
process.exitCode = report.ok ? 0 : 1;
