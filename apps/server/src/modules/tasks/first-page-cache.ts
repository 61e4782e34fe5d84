/**
 * The public browser's first pages (one per order and size) are what nearly every visitor
 * asks for. They are kept for at most a second, and dropped at once when this process
 * changes a task or takes or returns a slot, so a writer sees its own change; another server
 * process's change shows within the second. Deeper pages always read the database.
 * Concurrent misses share one query. Pages are kept as their JSON body.
 */
const FIRST_PAGE_TTL_MS = 1000;

let generation = 0;
const pages = new Map<string, { expires: number; generation: number; page: Promise<string> }>();

/** Called after any write that can change what the public list shows. */
export function publicListChanged(): void {
  generation += 1;
  pages.clear();
}

export function cachedFirstPage(key: string, now: Date, load: () => Promise<string>): Promise<string> {
  const cached = pages.get(key);
  if (cached && cached.generation === generation && cached.expires > now.getTime()) return cached.page;
  const page = load();
  const entry = { expires: now.getTime() + FIRST_PAGE_TTL_MS, generation, page };
  pages.set(key, entry);
  // A failed load is not kept.
  page.catch(() => pages.get(key) === entry && pages.delete(key));
  return page;
}
