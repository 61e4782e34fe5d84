import { runServer } from "../server.ts";
import { startReferenceServer } from "./reference-server.ts";

// `npm run bench` starts this (compiled to dist/bench-server.js) instead of main.ts: the same
// server, plus the bare reference route on BENCH_REFERENCE_PORT. Nothing of it runs in production.
const port = Number(process.env.BENCH_REFERENCE_PORT);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error("BENCH_REFERENCE_PORT must be a port number");
  process.exit(1);
}

runServer(async ({ env, database, app }) => {
  const reference = await startReferenceServer(database, port, env.HOST, app.clock);
  return [{ close: () => void reference.close() }];
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
