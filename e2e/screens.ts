// `npm run screens`: the screens gallery. Starts the app on demo data and saves every page, for
// every role, at phone and desktop width, light and dark, as WebP into docs/screens/, with an
// index (docs/screens/README.md). Reviewers look there first.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { launchBrowser } from "./support/browser.ts";
import {
  ROLES,
  allPages,
  settle,
  signInAs,
  startDemoServer,
  type Role,
  type Screen,
} from "./support/pages.ts";
import type { Browser } from "playwright-core";

const OUT = fileURLToPath(new URL("../docs/screens", import.meta.url));
const WIDTHS = [375, 1280] as const;
const THEMES = ["light", "dark"] as const;

async function shootRole(browser: Browser, baseURL: string, role: Role, screens: Screen[]) {
  const files: string[] = [];
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const context = await browser.newContext({
        baseURL,
        viewport: { width, height: width < 640 ? 812 : 900 },
        colorScheme: theme,
        reducedMotion: "reduce",
      });
      const page = await context.newPage();
      await signInAs(page, role, baseURL);
      for (const screen of screens) {
        await page.goto(screen.path);
        await settle(page);
        await page.waitForTimeout(400); // carousels and charts finish their first frame
        const file = `${screen.role}-${screen.name}-${width}-${theme}.webp`;
        const png = await page.screenshot({ fullPage: true, animations: "disabled" });
        await sharp(png).webp({ quality: 60 }).toFile(path.join(OUT, file));
        files.push(file);
      }
      await context.close();
    }
  }
  return files;
}

/** The index, with what changed since the last gallery (CHANGES.md, written by hand) first. */
function indexPage(screens: Screen[], changes: string) {
  const lines = [
    "# Screens gallery",
    "",
    "Every page of TaskMint for every role, at 375 and 1280 px, light and dark, on demo data.",
    "Made by `npm run screens` (the pages) from CHANGES.md (what changed); do not edit by hand.",
    "",
    changes.trim(),
    "",
  ];
  for (const role of ROLES) {
    lines.push(`## ${role[0]?.toUpperCase()}${role.slice(1)}`, "");
    lines.push(
      "| Page | Phone, light | Phone, dark | Desktop, light | Desktop, dark |",
      "|---|---|---|---|---|",
    );
    for (const screen of screens.filter((each) => each.role === role)) {
      const cell = (width: number, theme: string) =>
        `[${width} ${theme}](${screen.role}-${screen.name}-${width}-${theme}.webp)`;
      lines.push(
        `| ${screen.name} \`${screen.path}\` | ${cell(375, "light")} | ${cell(375, "dark")} | ${cell(1280, "light")} | ${cell(1280, "dark")} |`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function main() {
  const server = await startDemoServer();
  const browser = await launchBrowser();
  try {
    const screens = await allPages(server.url);
    await mkdir(OUT, { recursive: true });
    // The pictures are made again; CHANGES.md is the hand-written part of the index.
    for (const old of await readdir(OUT)) if (old.endsWith(".webp")) await rm(path.join(OUT, old));
    let count = 0;
    for (const role of ROLES) {
      const files = await shootRole(
        browser,
        server.url,
        role,
        screens.filter((screen) => screen.role === role),
      );
      count += files.length;
      console.log(`${role}: ${files.length} screens`);
    }
    const changes = await readFile(path.join(OUT, "CHANGES.md"), "utf8");
    await writeFile(path.join(OUT, "README.md"), indexPage(screens, changes));
    console.log(`${count} screens in ${path.relative(process.cwd(), OUT)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
