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
