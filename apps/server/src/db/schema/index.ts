export * from "./auth.ts";
export * from "./ledger.ts";
export * from "./uploads.ts";
export * from "./tasks.ts";
export * from "./money.ts";
export * from "./audit.ts";
export * from "./counters.ts";
export * from "./trust.ts";
