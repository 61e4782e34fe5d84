import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { TaskSearchPage } from "@taskmint/shared";
import { FIRST_PAGE_DATA_ID } from "@taskmint/shared/html";
import { marketplaceTestFile, registerUser, startTestApp, type TestContext } from "../../test/harness.ts";
import { startTcpProxy } from "../../test/tcp-proxy.ts";
import { pageEncoding, type WebRenderer } from "./task-list-page.ts";

// Decision 020: /allTask is rendered with the public list's first page; without the data or
// the render, it is the prerendered page, never an error.

const PRERENDERED = "<html><body><div id=root>prerendered All Tasks</div></body></html>";
const SHELL = '<html><head><style>x{}</style></head><body><div id="root"></div></body></html>';
const FIRST_PAGE_URL = "/api/tasks?sort=newest&limit=12";

/** A built web app with only what the page fallback reads. */
function webDist(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "taskmint-web-"));
  mkdirSync(path.join(folder, "prerendered"));
  writeFileSync(path.join(folder, "index.html"), SHELL);
  writeFileSync(path.join(folder, "prerendered/allTask.html"), PRERENDERED);
  return folder;
}

/** The web app's renderer, as the test sets it: each render noted, or failing when `failing` is set. */
const renders: TaskSearchPage[] = [];
let failing: Error | null = null;
const renderer: WebRenderer = {
  firstPageUrl: FIRST_PAGE_URL,
  shell: SHELL,
  render: async (_path, page) => {
    if (failing) throw failing;
    renders.push(page);
    return `<main>${page.items.map((task) => `<h2>${task.task_title}</h2>`).join("")}</main>`;
  },
};

const dist = webDist();
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const { ctx, call, newTask } = marketplaceTestFile({ web: { webDist: dist, webRenderer: renderer } });
const allTasks = (headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url: "/allTask", headers });

beforeEach(() => {
  failing = null;
  renders.length = 0;
});

describe("All Tasks rendered with its first page", () => {
  it("carries the first page's markup and JSON, as the API answers it, compressed as asked", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    await newTask(buyer, { task_title: "</script><script>alert(1)</script>" });
    const page = await allTasks({ "accept-encoding": "identity" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    const answer = (await call("GET", FIRST_PAGE_URL)).body;
    expect(page.body).toContain(`<div id="root"><main><h2>`);
    const data = new RegExp(`<script type="application/json" id="${FIRST_PAGE_DATA_ID}">(.*?)</script>`).exec(
      page.body,
    );
    expect(data?.[1]).not.toContain("</script>");
    expect(JSON.parse(data?.[1] ?? "null")).toEqual(JSON.parse(answer));

    const br = await allTasks({ "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(page.body);
    const gzip = await allTasks({ "accept-encoding": "gzip, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(page.body);
    // One render for all of them: the first page did not change.
    expect(renders).toHaveLength(1);
  });

  it("renders again once a write changed the first page, and only then", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    await newTask(buyer, { task_title: "Posted before the render" });
    await allTasks();
    // A write that leaves the first page as it was (the cache is cleared) renders nothing new.
    await registerUser(ctx.app, "worker");
    await allTasks();
    expect(renders).toHaveLength(1);
    await newTask(buyer, { task_title: "Posted after the render" });
    const page = await allTasks({ "accept-encoding": "identity" });
    expect(page.body).toContain("<h2>Posted after the render</h2>");
    expect(renders).toHaveLength(2);
  });

  it("gives signed-in users their own first page (with buyers' emails), not to be kept by shared caches", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const page = await allTasks({ cookie: worker.cookie, "accept-encoding": "identity" });
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    const signedIn = (await call("GET", FIRST_PAGE_URL, worker.cookie)).json<TaskSearchPage>();
    expect(signedIn.items[0]?.user_email).toBeTruthy();
    expect(page.body).toContain(signedIn.items[0]?.user_email);
  });

  it("sends the prerendered page when the render throws", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    await newTask(buyer); // a new first page: the last render is not reused
    failing = new Error("render broke");
    const page = await allTasks();
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(PRERENDERED);
    // Not kept: the next request renders.
    failing = null;
    expect((await allTasks({ "accept-encoding": "identity" })).body).toContain(FIRST_PAGE_DATA_ID);
  });

  it("sends the prerendered page when the first page cannot be read, or not in time", async () => {
    const cache = ctx.app.publicTaskPages;
    const get = cache.get.bind(cache);
    try {
      cache.get = () => Promise.reject(new Error("database away"));
      const refused = await allTasks();
      expect(refused.statusCode).toBe(200);
      expect(refused.body).toBe(PRERENDERED);
      cache.get = () => new Promise<string>(() => {});
      const started = performance.now();
      const late = await allTasks();
      expect(late.statusCode).toBe(200);
      expect(late.body).toBe(PRERENDERED);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      cache.get = get;
    }
  });

  it("gives a search's address the shell, not the rendered page", async () => {
    const page = await ctx.app.inject({ method: "GET", url: "/allTask?q=logo" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(SHELL);
  });
});

describe("a server-side bundle that does not load", () => {
  it("leaves the server up, serving the prerendered All Tasks", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "taskmint-web-"));
    const broken = path.join(root, "dist");
    mkdirSync(path.join(broken, "prerendered"), { recursive: true });
    mkdirSync(path.join(root, "dist-ssr"));
    writeFileSync(path.join(broken, "index.html"), SHELL);
    writeFileSync(path.join(broken, "prerendered/allTask.html"), PRERENDERED);
    writeFileSync(path.join(root, "dist-ssr/prerender.js"), 'throw new Error("broken bundle");\n');
    writeFileSync(path.join(root, "dist-ssr/shell.html"), SHELL);
    const app = await startTestApp({ web: { webDist: broken } });
    try {
      const page = await app.app.inject({ method: "GET", url: "/allTask" });
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe(PRERENDERED);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("pageEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0, gzip", "gzip"],
    ["BR;q=0.5", "br"],
    ["identity", null],
  ] as const)("%j: %j", (accepted, chosen) => {
    expect(pageEncoding(accepted)).toBe(chosen);
  });
});

const postgresUrl = process.env.DATABASE_URL;
describe.skipIf(!postgresUrl)("with PostgreSQL away (PostgreSQL only)", () => {
  it("still answers All Tasks with the prerendered page", async () => {
    const proxy = await startTcpProxy(postgresUrl ?? "");
    let away: TestContext | undefined;
    const direct = new pg.Client({ connectionString: postgresUrl });
    await direct.connect();
    try {
      away = await startTestApp({ databaseUrl: proxy.url, web: { webDist: dist, webRenderer: renderer } });
      proxy.takeAway({ dropOpen: true });
      await direct.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      for (const headers of [{}, { cookie: "better-auth.session_token=abc.def" }]) {
        const page = await away.app.inject({ method: "GET", url: "/allTask", headers });
        expect(page.statusCode).toBe(200);
        expect(page.body).toBe(PRERENDERED);
      }
      await proxy.bringBack();
    } finally {
      await away?.close();
      await proxy.close();
      await direct.end();
    }
  });
});
