/**
 * Searches found to match more tasks than the count's cap, remembered for a few seconds so the
 * next request for one skips the probe that found it (reading a thousand matches costs ~10 ms
 * at a million tasks; the page itself, walked in order, under 1 ms). What is remembered is only
 * "more than the cap": rows are read afresh every time. A search that stops being common
 * within the window is still answered right, only by the slower walk and with "1,000+" as
 * its count for those seconds. One memory per app instance (buildApp creates it), bounded.
 */
const COMMON_SEARCH_TTL_MS = 10_000;
const MAX_REMEMBERED = 1000;

export interface CommonSearches {
  isCommon(key: string, now: Date): boolean;
  remember(key: string, now: Date): void;
}

export function createCommonSearches(): CommonSearches {
  const expiries = new Map<string, number>();
  return {
    isCommon(key, now) {
      const expires = expiries.get(key);
      if (expires === undefined) return false;
      if (expires > now.getTime()) return true;
      expiries.delete(key);
      return false;
    },
    remember(key, now) {
      // A Map iterates in insertion order: re-inserting makes a key the newest, the first is the oldest.
      expiries.delete(key);
      const oldest = expiries.keys().next();
      if (expiries.size >= MAX_REMEMBERED && !oldest.done) expiries.delete(oldest.value);
      expiries.set(key, now.getTime() + COMMON_SEARCH_TTL_MS);
    },
  };
}
