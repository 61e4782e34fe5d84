/**
 * The public browser's first pages (one per order and size) are what nearly every visitor
 * asks for. They are kept for at most a second, and dropped at once when this process
 * changes anything (a successful write request, a job that closed or approved something),
 * so a writer sees its own change; another server process's change shows within the second.
 * Deeper pages always read the database. Concurrent misses share one query. Pages are kept
 * as their JSON body. One cache per app instance (buildApp creates it).
 */
const FIRST_PAGE_TTL_MS = 1000;

export interface FirstPageCache {
  /** Called after any write that can change what the public list shows. */
  changed(): void;
  get(key: string, now: Date, load: () => Promise<string>): Promise<string>;
}

export function createFirstPageCache(): FirstPageCache {
  let generation = 0;
  const pages = new Map<string, { expires: number; generation: number; page: Promise<string> }>();
  return {
    changed() {
      generation += 1;
      pages.clear();
    },
    get(key, now, load) {
      const cached = pages.get(key);
      if (cached && cached.generation === generation && cached.expires > now.getTime()) return cached.page;
      const page = load();
      const entry = { expires: now.getTime() + FIRST_PAGE_TTL_MS, generation, page };
      pages.set(key, entry);
      // A failed load is not kept.
      page.catch(() => pages.get(key) === entry && pages.delete(key));
      return page;
    },
  };
}
