export * from "./constants.ts";
export * from "./paging.ts";
export * from "./schemas.ts";
export * from "./tasks.ts";
export * from "./money.ts";
export * from "./text.ts";
