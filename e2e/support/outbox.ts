import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The first link of the newest mail to `to` whose subject contains `subject`, from the
 * server's dev outbox (no SMTP here), waiting up to 10 s for the mail to be written.
 */
export async function linkFromOutbox(dataDir: string, to: string, subject: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.includes(to));
    for (const file of files.sort().reverse()) {
      const text = await readFile(path.join(outbox, file), "utf8");
      if (/^Subject: (.*)$/m.exec(text)?.[1]?.includes(subject)) {
        const link = /https?:\/\/\S+/.exec(text.slice(text.indexOf("\n\n")))?.[0];
        if (link) return link;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} about "${subject}" in ${outbox}`);
}

export const VERIFICATION_SUBJECT = "Confirm your TaskMint email address";

/** Opens the verification mail's link as a mail app would (rule R28). */
export async function confirmEmailViaOutbox(dataDir: string, email: string) {
  const link = await linkFromOutbox(dataDir, email, VERIFICATION_SUBJECT);
  const response = await fetch(link, { redirect: "manual" });
  const landed = new URL(response.headers.get("location") ?? "", link);
  if (response.status !== 302 || landed.searchParams.has("error"))
    throw new Error(`verification failed: ${response.status} ${landed.href}`);
}
