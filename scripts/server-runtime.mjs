// Whether `npm start` (scripts/start.mjs) adds a V8 option for this machine: decided here, apart
// from the start script, so that a test can check the decision and what it is given.
import { totalmem } from "node:os";

/** Below this much memory, Node 24 keeps PGlite on V8's baseline compiler (decision 025). */
export const LOW_MEMORY_BYTES = 2 * 1024 ** 3;

/**
 * Whether the embedded database's WebAssembly should stay on V8's baseline compiler. Node 24's
 * V8 (13.6) takes about 600 MB for half a second to optimise one PGlite function once it is hot
 * (PostgreSQL's SQL parser; Node 22's and Node 26's V8 take 25 to 26 MB for it), which lifts the
 * server's peak from about 300 to about 750 MB. On a machine with under 2 GiB that spike could
 * get the server killed; the baseline compiler avoids it, with queries about 1.5 times slower
 * (15% less throughput in the benchmark). On PostgreSQL nothing is compiled, so nothing changes.
 *
 * @param {{ v8Version: string, memoryBytes: number, databaseUrl: string | undefined }} machine
 * @returns {boolean}
 */
export function baselineCompilerOnly({ v8Version, memoryBytes, databaseUrl }) {
  return !databaseUrl && v8Version.startsWith("13.") && memoryBytes < LOW_MEMORY_BYTES;
}

/** This machine's memory: the container's limit where one is set, else the total. */
export function machineMemoryBytes() {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

/** What the decision is made from, for the running process. */
export function thisMachine() {
  return {
    v8Version: process.versions.v8,
    memoryBytes: machineMemoryBytes(),
    databaseUrl: process.env.DATABASE_URL,
  };
}
