import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { startServer, type RunningServer } from "./server.ts";

/** Chromium's flags for this closed network (without the background-networking ones it keeps retrying refused connections). */
export const QUIET_CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's Chromium (or CHROMIUM_PATH); installs it when missing and we are root. */
export function chromiumPath(): string {
  const wanted = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(wanted)) return wanted;
  if (process.getuid?.() === 0) {
    execFileSync(
      "sh",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"],
      { stdio: "inherit" },
    );
    if (existsSync(wanted)) return wanted;
  }
  throw new Error(`Chromium not found at ${wanted}: install Debian's chromium package or set CHROMIUM_PATH`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ["--headless", ...QUIET_CHROMIUM_FLAGS] });
}

/** A test file's real server (on `env`) and Chromium, started together. */
export async function startServerAndBrowser(env?: Record<string, string>) {
  const server = await startServer(env);
  return { server, browser: await launchBrowser() };
}

/** Stops what startServerAndBrowser started (either may be missing if starting failed). */
export async function stopServerAndBrowser(server?: RunningServer, browser?: Browser) {
  await browser?.close();
  await server?.stop();
}
