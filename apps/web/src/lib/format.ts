import { coinCount, dollarsPerHour, plural } from "@taskmint/shared/constants";

export { coinCount, plural };
export const formatCoins = (coins: number) => coins.toLocaleString("en-US");
export const formatDollars = (amount: number) =>
  amount.toLocaleString("en-US", { style: "currency", currency: "USD" });
export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });

/** "1 open slot", "3 open slots". */
export const openSlots = (slots: number) => plural(slots, "open slot");

/** "about $2.40/h": what a task pays per hour of its estimated time (Prolific shows the same). */
export const payPerHour = (coins: number, estimatedMinutes: number) =>
  `about ${formatDollars(dollarsPerHour(coins, estimatedMinutes))}/h`;

/** "5 min", "1 h 30 min". */
export const minutesText = (minutes: number) => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
};
