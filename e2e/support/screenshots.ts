import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

export const SCREENSHOTS = fileURLToPath(new URL("../screenshots", import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/** Full-page pictures of a page at desktop and phone width, into e2e/screenshots/NAME-WIDTH.png. */
export async function shoot(page: Page, name: string, widths = [1280, 375]) {
  const original = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300); // let the layout settle after the resize
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
