import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./schemas.ts";
import { textSchema } from "./text.ts";

/** Body of the two-factor routes that ask for the password again (turn on, turn off, new backup codes). */
export const twoFactorPasswordSchema = z
  .object({ password: textSchema("Password", { max: PASSWORD_MAX_LENGTH, trim: false }) })
  .strict();
export type TwoFactorPasswordRequest = z.infer<typeof twoFactorPasswordSchema>;

/** The 6 digits an authenticator app shows; spaces people type between the groups are dropped. */
export const totpCodeSchema = z
  .string({ error: "The code is required" })
  .max(20, "Enter the 6-digit code from your authenticator app")
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));

/** Body of POST /api/auth/two-factor/verify-totp (finishing enrolment, or a sign-in's second step). */
export const verifyTotpSchema = z.object({ code: totpCodeSchema }).strict();
export type VerifyTotpRequest = z.input<typeof verifyTotpSchema>;

/** A backup code as shown (`abcde-12345`); typed without its dash, it is put back. */
export const backupCodeSchema = z
  .string({ error: "The backup code is required" })
  .max(20, "A backup code is 10 letters and digits, like abcde-12345")
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, "A backup code is 10 letters and digits, like abcde-12345")
      .transform((value) => (value.includes("-") ? value : `${value.slice(0, 5)}-${value.slice(5)}`)),
  );

/** Body of POST /api/auth/two-factor/verify-backup-code (a sign-in's second step without the app). */
export const verifyBackupCodeSchema = z.object({ code: backupCodeSchema }).strict();
export type VerifyBackupCodeRequest = z.input<typeof verifyBackupCodeSchema>;

/** Answer of turning two-factor sign-in on: the authenticator's otpauth address and the backup codes, shown once. */
export const twoFactorEnrolmentSchema = z.object({
  totpURI: z.string(),
  backupCodes: z.array(z.string()),
});
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;

/** Answer of making new backup codes (the old ones stop working). */
export const backupCodesSchema = z.object({ backupCodes: z.array(z.string()) });
export type BackupCodes = z.infer<typeof backupCodesSchema>;

/** What a sign-in with two-factor on answers instead of a session: ask for the second step. */
export const twoFactorChallengeSchema = z.object({
  twoFactorRedirect: z.literal(true),
  twoFactorMethods: z.array(z.string()),
});

/** What kind of device a session's user agent says it is. */
export const deviceKinds = ["phone", "tablet", "computer"] as const;
export type DeviceKind = (typeof deviceKinds)[number];

/** One of the caller's sessions (GET /api/me/sessions). */
export const activeSessionSchema = z.object({
  id: z.string(),
  /** Browser and system read from the user agent, e.g. "Chrome on Android". */
  device: z.string(),
  /** The browser with its major version ("Chrome 126"), null when the user agent names none. */
  browser: z.string().nullable(),
  /** The system with its major version where given ("Android 14", "Windows"), or null. */
  system: z.string().nullable(),
  kind: z.enum(deviceKinds).nullable(),
  ip: z.string().nullable(),
  /** When the session began: its sign-in. */
  first_seen: z.string(),
  last_seen: z.string(),
  /** The session of this very request. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;
