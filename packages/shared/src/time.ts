/** A day in milliseconds: the rules' windows (auto-approval, appeals, reputations) count whole UTC days. */
export const DAY_MS = 86_400_000;
