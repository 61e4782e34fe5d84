import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type IConfiguration } from "dependency-cruiser";
import { afterEach, describe, expect, it } from "vitest";

// The module borders `npm run lint:borders` keeps (.dependency-cruiser.cjs), shown to fail on
// planted imports across them, in a scratch tree shaped like ours.
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const config = createRequire(import.meta.url)(
  path.join(repoRoot, ".dependency-cruiser.cjs"),
) as IConfiguration;

let scratch: string | undefined;
afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** The rules the imports of `files` (path under `under`: source) break. */
async function brokenRules(files: Record<string, string>, under = "apps/server/src"): Promise<string[]> {
  scratch = await mkdtemp(path.join(tmpdir(), "taskmint-borders-"));
  for (const [file, source] of Object.entries(files)) {
    const full = path.join(scratch, under, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, source);
  }
  const result = await cruise(
    [under],
    { validate: true, ruleSet: { forbidden: config.forbidden }, baseDir: scratch },
    { extensions: [".ts"] },
  );
  if (typeof result.output === "string") throw new Error("expected the cruise result as an object");
  return [...new Set(result.output.summary.violations.map((violation) => violation.rule.name))].sort();
}

describe("the server's module borders", () => {
  it("let a module use another through its service, and the core stand below both", async () => {
    expect(
      await brokenRules({
        "lib/clock.ts": "export const now = () => 1;",
        "modules/tasks/service.ts": 'import { now } from "../../lib/clock.ts"; export const task = now;',
        "modules/submissions/service.ts":
          'import { task } from "../tasks/service.ts"; import { own } from "./views.ts"; export const s = task ?? own;',
        "modules/submissions/views.ts": "export const own = 1;",
      }),
    ).toEqual([]);
  });

  it("refuse a module reaching into another's internals", async () => {
    expect(
      await brokenRules({
        "modules/tasks/service.ts": 'import { own } from "../submissions/views.ts"; export const t = own;',
        "modules/submissions/views.ts": "export const own = 1;",
      }),
    ).toEqual(["module-through-its-service"]);
  });

  it("refuse an import cycle through two modules", async () => {
    expect(
      await brokenRules({
        "modules/tasks/service.ts":
          'import { s } from "../submissions/service.ts"; export const t = () => s;',
        "modules/submissions/service.ts":
          'import { t } from "../tasks/service.ts"; export const s = () => t;',
      }),
    ).toEqual(["no-cycle-between-modules"]);
  });

  it("refuse the core importing a module", async () => {
    expect(
      await brokenRules({
        "core/audit.ts": 'import { t } from "../modules/tasks/service.ts"; export const a = t;',
        "modules/tasks/service.ts": "export const t = 1;",
      }),
    ).toEqual(["core-below-modules"]);
  });
});

describe("the web's feature borders", () => {
  const web = (files: Record<string, string>) => brokenRules(files, "apps/web/src");

  it("let app/ compose two features that share components/ and lib/", async () => {
    expect(
      await web({
        "lib/keys.ts": "export const root = ['tasks'];",
        "components/Cell.tsx": "export const Cell = () => null;",
        "features/tasks/queries.ts": 'import { root } from "../../lib/keys.ts"; export const q = root;',
        "features/trust/Appeal.tsx":
          'import { Cell } from "../../components/Cell.tsx"; import { root } from "../../lib/keys.ts"; export const A = Cell ?? root;',
        "app/pages/Home.tsx":
          'import { q } from "../../features/tasks/queries.ts"; import { A } from "../../features/trust/Appeal.tsx"; export const H = q ?? A;',
      }),
    ).toEqual([]);
  });

  it("refuse a feature importing another feature", async () => {
    expect(
      await web({
        "features/tasks/queries.ts": "export const q = 1;",
        "features/trust/api.ts": 'import { q } from "../tasks/queries.ts"; export const a = q;',
      }),
    ).toEqual(["feature-stands-alone"]);
  });

  it("refuse a feature reaching up into app/", async () => {
    expect(
      await web({
        "app/router.tsx": "export const r = 1;",
        "features/tasks/Page.tsx": 'import { r } from "../../app/router.tsx"; export const p = r;',
      }),
    ).toEqual(["feature-below-app"]);
  });
});
