import { runServer } from "./server.ts";

runServer().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
