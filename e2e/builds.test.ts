import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILDS, buildWhatChanged, recordOf } from "../scripts/builds.mjs";

// Issue 31: after `NODE_ENV=development npm start`, a production start took the web app's
// server-side bundle (built with React's development JSX runtime) as up to date, failed to load
// it ("jsxDEV is not a function") and served All Tasks prerendered. A build is reused only when
// made from the same inputs in the same mode.

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

describe("what decides whether a build is reused (issue 31)", () => {
  it("builds again in another mode or from a changed input, and not otherwise", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "taskmint-build-"));
    folders.push(folder);
    const input = path.join(folder, "input.txt");
    const output = path.join(folder, "built.txt");
    await writeFile(input, "one");
    // A real build process, which writes down the mode it ran in.
    const writeMode = `require("node:fs").appendFileSync(${JSON.stringify(output)}, (process.env.NODE_ENV ?? "unset") + "\\n")`;
    const command: [string, string[]] = [process.execPath, ["-e", writeMode]];
    const build = { name: "test build", record: path.join(folder, ".inputs-hash"), inputs: [input], command };
    const builds = (env: Record<string, string>) => buildWhatChanged(env, [build]).length;

    expect(builds({ NODE_ENV: "development" })).toBe(1);
    expect(builds({ NODE_ENV: "development" })).toBe(0);
    // The case: a start without NODE_ENV (production, to the build tools) after one in development.
    expect(builds({})).toBe(1);
    expect(builds({ NODE_ENV: "production" })).toBe(0);
    expect(builds({ NODE_ENV: "test" })).toBe(1);
    await writeFile(input, "two");
    expect(builds({ NODE_ENV: "test" })).toBe(1);
    expect(builds({ NODE_ENV: "test" })).toBe(0);
    expect((await readFile(output, "utf8")).trim().split("\n")).toEqual([
      "development",
      "unset",
      "test",
      "test",
    ]);
  });

  it("records the mode of every build npm start, the benchmark and the load test run from", () => {
    expect(BUILDS.map((build) => build.name)).toEqual(["web app", "server"]);
    for (const build of BUILDS) {
      expect(recordOf(build, { NODE_ENV: "development" }), build.name).not.toBe(recordOf(build, {}));
      expect(recordOf(build, { NODE_ENV: "production" }), build.name).toBe(recordOf(build, {}));
    }
  });
});
