// HTML of the public pages a visitor lands on, rendered for Node. The build prerenders them
// (scripts/prerender.mjs) as a signed-out visitor with no data yet; the server keeps this module
// (dist-ssr/prerender.js) and renders All Tasks with the public list's first page in it
// (apps/server/src/modules/tasks/task-list-page.ts). The app then renders over the markup
// (createRoot, not hydration), with the same first frame.
import { QueryClient, QueryClientProvider, type InfiniteData } from "@tanstack/react-query";
import { StrictMode } from "react";
import { text } from "node:stream/consumers";
import { prerenderToNodeStream } from "react-dom/static";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import type { TaskSearchPage } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Providers } from "./app/providers.tsx";
import { routes } from "./app/router.tsx";
import { FIRST_PAGE_FILTERS } from "./features/public/firstPage.ts";
import { publicQueries, publicTasksUrl } from "./features/public/queries.ts";

/** The pages to prerender, each with the API answers it asks for first (preloaded with the page). */
export const PRERENDERED_PAGES: Record<string, { data: string[] }> = {
  [paths.home]: { data: [] },
  [paths.allTasks]: { data: [publicTasksUrl(FIRST_PAGE_FILTERS)] },
};

/** The API address of the first page the server renders All Tasks with. */
export const FIRST_PAGE_URL = publicTasksUrl(FIRST_PAGE_FILTERS);

/**
 * The markup of the page at `path` (for the page's #root), as a signed-out visitor sees it
 * first; with `firstPage`, the public task list's first page (unfiltered, newest first) is
 * already there, as the app shows it once it has that answer.
 */
export async function render(path: string, firstPage?: TaskSearchPage): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, "http://localhost")));
  if (context instanceof Response) throw new Error(`${path} redirects: it cannot be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // A query cache of this render's own (nothing is ever fetched here).
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  if (firstPage)
    client.setQueryData<InfiniteData<TaskSearchPage, string>>(
      publicQueries.tasks(FIRST_PAGE_FILTERS).queryKey,
      { pages: [firstPage], pageParams: [""] },
    );
  // prerender (unlike renderToString) waits for the pages' lazy code, so they render whole. No
  // part is sent apart (React does that with parts larger than progressiveChunkSize: a fallback
  // in place and the part hidden after it, swapped by an inline script the page's CSP refuses).
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Providers>
        <QueryClientProvider client={client}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </QueryClientProvider>
      </Providers>
    </StrictMode>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await text(prelude);
  if (html.includes("<script")) throw new Error(`${path} rendered with a script: a part was sent apart`);
  return html;
}
