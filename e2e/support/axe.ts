import axe from "axe-core";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

/**
 * The serious and critical axe findings (contrast included) on the page as it is shown now.
 *
 * axe runs in the page's own document. @axe-core/playwright's builder also opened a blank page
 * for every check to merge per-frame results: 1.2-2.3 s a check against 0.3-0.9 s here, which
 * timed the design matrix out in CI. Our pages have no frames of their own to check.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axe.source);
  const { violations } = await page.evaluate<AxeResults>(
    "axe.run(document, { resultTypes: ['violations'] })",
  );
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}
