// Build-time HTML for the public pages a visitor lands on (scripts/prerender.mjs): the page as
// a signed-out visitor first sees it, so the phone paints it before the app's script has run.
// The app then renders over it (createRoot, not hydration), with the same first frame.
import { StrictMode } from "react";
import { text } from "node:stream/consumers";
import { prerenderToNodeStream } from "react-dom/static";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Providers } from "./app/providers.tsx";
import { routes } from "./app/router.tsx";
import { publicTasksUrl } from "./features/public/queries.ts";

/** The pages to prerender, each with the API answers it asks for first (preloaded with the page). */
export const PRERENDERED_PAGES: Record<string, { data: string[] }> = {
  [paths.home]: { data: [] },
  [paths.allTasks]: { data: [publicTasksUrl({ sort: "newest" })] },
};

export async function render(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, "http://localhost")));
  if (context instanceof Response) throw new Error(`${path} redirects: it cannot be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // prerender (unlike renderToString) waits for the pages' lazy code, so they render whole.
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Providers>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Providers>
    </StrictMode>,
  );
  return text(prelude);
}
