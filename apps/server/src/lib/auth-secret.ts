import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.ts";

/** AUTH_SECRET, or one generated once into DATA_DIR and reused on every start. */
export async function resolveAuthSecret(env: Env): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    await mkdir(env.DATA_DIR, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
