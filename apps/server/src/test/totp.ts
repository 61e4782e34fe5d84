import { setTimeout as sleep } from "node:timers/promises";
import { base32Bytes, hotp, SECOND_STEP_RULES } from "../modules/auth/second-step.ts";

/** The secret of an otpauth:// address, as the authenticator app reads it from the QR code. */
export function totpSecretOf(otpauthUri: string): string {
  const secret = new URL(otpauthUri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${otpauthUri}`);
  return secret;
}

const stepOf = (at: Date) => Math.floor(at.getTime() / (SECOND_STEP_RULES.stepSeconds * 1000));

/** The 6-digit code an authenticator app shows for a base32 secret at `at` (RFC 6238: HMAC-SHA1, 30-second steps). */
export function totpCode(base32Secret: string, at = new Date()): string {
  return hotp(base32Bytes(base32Secret), stepOf(at));
}

/** A code that is not the current one, nor the one before or after (the server accepts those three). */
export function wrongTotpCode(base32Secret: string): string {
  const near = new Set(
    [-30_000, 0, 30_000].map((shift) => totpCode(base32Secret, new Date(Date.now() + shift))),
  );
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

/** The newest time step this test process used for each secret. */
const usedSteps = new Map<string, number>();

/** Now's code, noted as used: a later `freshTotpCode` of the same secret takes a newer step. */
export function currentTotpCode(base32Secret: string): string {
  const step = stepOf(new Date());
  usedSteps.set(base32Secret, Math.max(usedSteps.get(base32Secret) ?? -Infinity, step));
  return hotp(base32Bytes(base32Secret), step);
}

/**
 * A code the server has not accepted yet (each time step is accepted once, rule R30): now's, else
 * the next step's (the server takes one step either side), else, after waiting for the next step
 * to begin, that one's. For tests that sign the same account in several times.
 */
export async function freshTotpCode(base32Secret: string): Promise<string> {
  const used = usedSteps.get(base32Secret) ?? -Infinity;
  let step = Math.max(stepOf(new Date()), used + 1);
  if (step > stepOf(new Date()) + SECOND_STEP_RULES.stepWindow) {
    const stepMs = SECOND_STEP_RULES.stepSeconds * 1000;
    await sleep((step - SECOND_STEP_RULES.stepWindow) * stepMs - Date.now() + 50);
    step = Math.max(stepOf(new Date()), used + 1);
  }
  usedSteps.set(base32Secret, step);
  return hotp(base32Bytes(base32Secret), step);
}
