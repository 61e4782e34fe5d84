/**
 * All Tasks (/allTask) rendered per request with the public list's first page in it (decision
 * 020): the cards, their pictures and the page's JSON are in the HTML, so a phone paints the
 * tasks before the app's script has arrived, and the app starts with the same page of data.
 * The markup comes from the web app's own components, through its server-side bundle
 * (apps/web/src/prerender.tsx, built into apps/web/dist-ssr/ with the page shell beside it).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { FastifyBaseLogger } from "fastify";
import { publicTaskQuerySchema, type PublicTaskQuery, type TaskSearchPage } from "@taskmint/shared";
import { FIRST_PAGE_DATA_ID, jsonForScript } from "@taskmint/shared/html";
import type { TaskAudience } from "./views.ts";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What the server uses of the web app's server-side bundle. */
export interface WebRenderer {
  /** The markup of the page at `path` for its #root, with the public list's first page shown. */
  render(path: string, firstPage: TaskSearchPage): Promise<string>;
  /** The API address of that first page (its order and size are the app's). */
  firstPageUrl: string;
  /** The built index.html with its stylesheet inline and an empty #root. */
  shell: string;
}

interface WebBundle {
  render: (path: string, firstPage?: TaskSearchPage) => Promise<string>;
  FIRST_PAGE_URL: string;
}

/**
 * Loads the web app's server-side bundle from `ssrDir` (apps/web/dist-ssr), or null when the
 * build has none. It renders the page once with no data, so its on-demand code is loaded
 * before the first visitor asks.
 */
export async function loadWebRenderer(ssrDir: string, pagePath: string): Promise<WebRenderer | null> {
  const entry = path.join(ssrDir, "prerender.js");
  const shellFile = path.join(ssrDir, "shell.html");
  if (!existsSync(entry) || !existsSync(shellFile)) return null;
  const bundle = (await import(pathToFileURL(entry).href)) as WebBundle;
  await bundle.render(pagePath);
  return {
    render: bundle.render,
    firstPageUrl: bundle.FIRST_PAGE_URL,
    shell: readFileSync(shellFile, "utf8"),
  };
}

/** A rendered page, with the compressed copies sent to browsers that take them. */
export interface RenderedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/** How long a request waits for the data and the render before it gets the prerendered page. */
const RENDER_DEADLINE_MS = 2_000;

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The All Tasks page for each audience (visitors and signed-in users have first pages of their
 * own), rendered from the first page's JSON as the public list's first-page cache holds it:
 * a page is rendered again only when that JSON changed, so it is never staler than the API's
 * own answer, and it is dropped with it (a write clears that cache). Concurrent requests share
 * one render. Answers null, and logs why, when the data or the render failed or took longer
 * than RENDER_DEADLINE_MS: the caller then sends the prerendered page.
 */
export function createTaskListPage(options: {
  renderer: WebRenderer;
  pagePath: string;
  /** The first page's JSON body, from the public list's first-page cache. */
  firstPageJson: (query: PublicTaskQuery, audience: TaskAudience) => Promise<string>;
  log: FastifyBaseLogger;
  deadlineMs?: number;
}) {
  const { renderer, pagePath, firstPageJson, log, deadlineMs = RENDER_DEADLINE_MS } = options;
  if (!renderer.shell.includes(EMPTY_ROOT)) throw new Error("the page shell has no empty #root");
  const query = publicTaskQuerySchema.parse(
    Object.fromEntries(new URL(renderer.firstPageUrl, "http://localhost").searchParams),
  );
  const last = new Map<TaskAudience, { json: string; page: Promise<RenderedPage> }>();

  async function renderPage(json: string): Promise<RenderedPage> {
    const markup = await renderer.render(pagePath, JSON.parse(json) as TaskSearchPage);
    const data = `<script type="application/json" id="${FIRST_PAGE_DATA_ID}">${jsonForScript(json)}</script>`;
    // A function, so no `$&` or `$'` in a task's text is read as a replacement pattern.
    const html = renderer.shell.replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>${data}`);
    const [br, gzip] = await Promise.all([
      // Fast settings: a page is compressed once for every request until the data changes.
      brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
      gzipped(html, { level: 6 }),
    ]);
    return { html, br, gzip };
  }

  async function page(audience: TaskAudience): Promise<RenderedPage> {
    const json = await firstPageJson(query, audience);
    const known = last.get(audience);
    if (known?.json === json) return known.page;
    const entry = { json, page: renderPage(json) };
    last.set(audience, entry);
    // A failed render is not kept: the next request tries again.
    entry.page.catch(() => last.get(audience) === entry && last.delete(audience));
    return entry.page;
  }

  return async (audience: () => Promise<TaskAudience>): Promise<RenderedPage | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), deadlineMs)));
    try {
      const rendered = await Promise.race([audience().then(page), late]);
      if (rendered === "late") {
        log.warn({ deadlineMs }, "All Tasks was not rendered in time: sending the prerendered page");
        return null;
      }
      return rendered;
    } catch (error) {
      log.warn({ err: error }, "All Tasks could not be rendered: sending the prerendered page");
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The encoding to send a rendered page in, from the request's Accept-Encoding. */
export function pageEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase().split(";"))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name),
  );
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}
