// After `vite build`: renders the public pages a visitor lands on (apps/web/src/prerender.tsx,
// built for Node into dist-ssr/) into copies of dist/index.html under dist/prerendered/, which
// the server sends for those paths. A phone paints them before the app's script has run.
// dist-ssr/ stays, with the page shell in dist-ssr/shell.html: the server renders All Tasks
// with its first page of tasks through them (apps/server/src/modules/tasks/task-list-page.ts).
//   node scripts/prerender.mjs apps/web
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The file each page is written to (the server maps them back the same way). */
const prerenderedFile = (page) => `prerendered${page === "/" ? "/index" : page}.html`;

const web = path.resolve(process.argv[2] ?? "apps/web");
const { render, PRERENDERED_PAGES } = await import(
  pathToFileURL(path.join(web, "dist-ssr/prerender.js")).href
);
const built = await readFile(path.join(web, "dist/index.html"), "utf8");
if (!built.includes('<div id="root"></div>')) throw new Error("dist/index.html has no empty #root");
// The stylesheet goes inline: on a slow phone link its request would otherwise share the
// bandwidth with the scripts and hold the first paint back until all of them arrive.
const stylesheet = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/.exec(built);
if (!stylesheet) throw new Error("dist/index.html links no stylesheet");
const css = await readFile(path.join(web, "dist", stylesheet[1]), "utf8");
// The markup paints without the app's scripts, so they are fetched at low priority: the
// browser gives the page and its images the link first (and Lighthouse stops counting them
// as holding the first paint back). The app takes over after that paint (main.tsx).
const shell = built
  .replace(stylesheet[0], () => `<style>${css}</style>`)
  .replaceAll(/<(script type="module"|link rel="modulepreload") /g, '<$1 fetchpriority="low" ');
if (!shell.includes('<script type="module" fetchpriority="low" '))
  throw new Error("dist/index.html has no module script to fetch at low priority");
await mkdir(path.join(web, "dist/prerendered"), { recursive: true });
for (const [page, { data }] of Object.entries(PRERENDERED_PAGES)) {
  const html = await render(page);
  const file = path.join(web, "dist", prerenderedFile(page));
  // The preload's credentials mode must be the one lib/api.ts fetches with (include), or it is not reused.
  const links = data
    .map(
      (url) =>
        `<link rel="preload" href="${url.replaceAll("&", "&amp;")}" as="fetch" crossorigin="use-credentials">`,
    )
    .join("");
  await writeFile(
    file,
    shell
      .replace("</head>", `${links}</head>`)
      .replace('<div id="root"></div>', `<div id="root">${html}</div>`),
  );
  console.log(
    `prerendered ${page}: ${(html.length / 1024).toFixed(1)} KB of markup -> ${path.relative(web, file)}`,
  );
}
await writeFile(path.join(web, "dist-ssr/shell.html"), shell);
