import { paths } from "./routes.ts";

/** The product's name, shown beside the logo; change it here only. */
export const BRAND = "TaskMint";

export const ROLES = ["worker", "buyer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person may choose for themself at sign-up (admins are made, not chosen). */
export const SELF_REGISTER_ROLES = ["worker", "buyer"] as const;
export type SelfRegisterRole = (typeof SELF_REGISTER_ROLES)[number];

/** Product rule R1: coins granted once, at sign-up. */
export const SIGNUP_BONUS: Record<SelfRegisterRole, number> = { worker: 10, buyer: 50 };

/** Product rule R18: largest accepted image upload. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_RULE_MESSAGE = `Use at least ${PASSWORD_MIN_LENGTH} characters, with an uppercase and a lowercase letter`;

/** Where each role lands in the dashboard. */
export const ROLE_HOME: Record<Role, string> = {
  worker: paths.dashboard.workerHome,
  buyer: paths.dashboard.buyerHome,
  admin: paths.dashboard.adminHome,
};

/** Rule R10: coins are worth this many to the dollar when withdrawn. */
export const COINS_PER_DOLLAR = 20;

/**
 * What a slot pays per hour of the estimated time, in dollars (20 coins = $1), to the
 * cent: what Prolific shows beside each study.
 */
export const dollarsPerHour = (coins: number, estimatedMinutes: number) =>
  Math.round((coins * 60 * 100) / (estimatedMinutes * COINS_PER_DOLLAR)) / 100;

/** A count with its noun, singular for exactly one: "1 slot", "2 slots", "1,000 coins". */
export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
/** "1 coin", "150 coins". */
export const coinCount = (coins: number) => plural(coins, "coin");
