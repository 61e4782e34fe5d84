import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's Chromium (or CHROMIUM_PATH); installs it when missing and we are root. */
function chromiumPath(): string {
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
  return chromium.launch({ executablePath: chromiumPath(), args: FLAGS });
}
