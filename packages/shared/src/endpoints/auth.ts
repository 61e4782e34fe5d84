import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import {
  changePasswordSchema,
  passwordResetRequestSchema,
  registerFieldsSchema,
  resetPasswordSchema,
  resetRequestedSchema,
  resetTokenSchema,
  signInRequestSchema,
  socialSignInSchema,
  userAnswerSchema,
} from "../schemas.ts";
import {
  backupCodesSchema,
  twoFactorEnrolmentSchema,
  twoFactorPasswordSchema,
  verifyBackupCodeSchema,
  verifyTotpSchema,
} from "../security.ts";
import { textSchema } from "../text.ts";

/**
 * A page of this site that a link sends the browser back to. Declared as its plain shape: the
 * server also requires it to be on one of its own origins, which only the running app knows.
 */
const returnPage = z.string().max(500);

const tags = ["account"];
const twoFactorTags = ["account", "two-factor"];

/*
 * Most of these are handed to the auth library, which writes the answer (docs/decisions/009).
 * Their `response` describes what the web reads of it, loosely, so that `call` accepts all the
 * library may add; the server does not apply it to the library's answer.
 */

/** Signing up, in and out, passwords, email verification and two-factor sign-in. */
export const authEndpoints = {
  signInWithEmail: defineEndpoint({
    method: "POST",
    path: "/api/auth/sign-in/email",
    operationId: "signInWithEmail",
    access: "public",
    tags,
    summary: "Sign in with email and password; sets the session cookie",
    body: signInRequestSchema,
    // With two-factor on, no session yet: `twoFactorRedirect` asks for the second step.
    response: { 200: z.looseObject({ twoFactorRedirect: z.boolean().optional() }) },
    errors: [401, 403, 429],
  }),
  signInWithGoogle: defineEndpoint({
    method: "POST",
    path: "/api/auth/sign-in/social",
    operationId: "signInWithGoogle",
    access: "public",
    tags,
    summary: "Start Google sign-in; answers the provider's address to go to",
    body: socialSignInSchema,
    response: { 200: z.looseObject({ url: z.string().optional() }) },
    errors: [404, 429],
  }),
  finishGoogleSignIn: defineEndpoint({
    method: "GET",
    path: "/api/auth/callback/:provider",
    operationId: "finishGoogleSignIn",
    access: "public",
    tags,
    summary: "Where Google sends the browser back after sign-in",
    params: z.object({ provider: z.literal("google") }),
    // Google's answer (code and state, or error); anything else it adds goes through as well.
    query: z
      .object({
        code: textSchema("code", { min: 0, max: 4000, trim: false }).optional(),
        state: textSchema("state", { min: 0, max: 4000, trim: false }).optional(),
        error: textSchema("error", { min: 0, max: 4000, trim: false }).optional(),
      })
      .catchall(textSchema("A parameter", { min: 0, max: 4000, trim: false })),
  }),
  signOut: defineEndpoint({
    method: "POST",
    path: "/api/auth/sign-out",
    operationId: "signOut",
    access: "optional",
    tags,
    summary: "End this session",
    body: z.object({}).strict().optional(),
  }),
  changePassword: defineEndpoint({
    method: "POST",
    path: "/api/auth/change-password",
    operationId: "changePassword",
    access: "user",
    tags,
    summary: "Change your password; your other sessions and any reset links still out end",
    body: changePasswordSchema,
    errors: [429],
  }),
  requestPasswordReset: defineEndpoint({
    method: "POST",
    path: "/api/auth/request-password-reset",
    operationId: "requestPasswordReset",
    access: "public",
    tags,
    summary: "Mail a password reset link, if the account exists (the answer is the same either way)",
    body: passwordResetRequestSchema,
    response: { 200: resetRequestedSchema },
    errors: [429],
  }),
  openPasswordResetLink: defineEndpoint({
    method: "GET",
    path: "/api/auth/reset-password/:token",
    operationId: "openPasswordResetLink",
    access: "public",
    tags,
    summary: "The link in a reset mail: sends the browser to the page that sets the new password",
    params: z.object({ token: resetTokenSchema }),
    query: z.object({ callbackURL: returnPage }),
  }),
  openEmailVerificationLink: defineEndpoint({
    method: "GET",
    path: "/api/auth/verify-email",
    operationId: "openEmailVerificationLink",
    access: "public",
    tags,
    summary:
      "The link in a verification mail: confirms the address, then sends the browser to the page that says so",
    query: z.object({
      token: z.string().regex(/^[A-Za-z0-9_.-]{1,2000}$/, "Invalid or expired link"),
      callbackURL: returnPage.optional(),
    }),
  }),
  resendEmailVerification: defineEndpoint({
    method: "POST",
    path: "/api/me/verify-email/resend",
    operationId: "resendEmailVerification",
    access: "user",
    tags,
    summary: "Mail a new verification link to the signed-in user's address",
    response: { 200: resetRequestedSchema },
    errors: [409, 429],
  }),
  register: defineEndpoint({
    method: "POST",
    path: "/api/register",
    operationId: "register",
    access: "public",
    tags,
    summary: "Create a worker or buyer account and sign in",
    description:
      "multipart/form-data with the fields name, role (worker|buyer), email, password and, optionally, the file photo (an image, at most 5 MB; without one, the user's initials stand in: rule R29). Grants the starting coins (worker 10, buyer 50) and sets the session cookie.",
    form: { fields: registerFieldsSchema, files: { photo: { required: false } } },
    response: { 201: userAnswerSchema },
    errors: [409, 413, 415, 429],
  }),
  resetPassword: defineEndpoint({
    method: "POST",
    path: "/api/password/reset",
    operationId: "resetPassword",
    access: "public",
    tags,
    summary: "Set a new password with the token of a reset link, and sign in",
    body: resetPasswordSchema,
    response: { 200: userAnswerSchema },
    errors: [429],
  }),
  enableTwoFactor: defineEndpoint({
    method: "POST",
    path: "/api/auth/two-factor/enable",
    operationId: "enableTwoFactor",
    access: "user",
    tags: twoFactorTags,
    summary:
      "Start turning on two-factor sign-in (password again): answers the otpauth address and 10 backup codes",
    body: twoFactorPasswordSchema,
    response: { 200: twoFactorEnrolmentSchema.loose() },
    errors: [429],
  }),
  verifyTwoFactorCode: defineEndpoint({
    method: "POST",
    path: "/api/auth/two-factor/verify-totp",
    operationId: "verifyTwoFactorCode",
    access: "optional",
    tags: twoFactorTags,
    summary:
      "A code from the authenticator app: a sign-in's second step (sets the session cookie), the code that finishes turning two-factor on (other sessions end), or, signed in, a code that confirms this session for admin actions",
    description:
      "Each code is accepted once: a code whose time step was accepted before answers 401. Ten wrong codes in a row (counted before they are judged) lock the account's second step for 15 minutes (429 with Retry-After).",
    body: verifyTotpSchema,
    errors: [401, 429],
  }),
  verifyBackupCode: defineEndpoint({
    method: "POST",
    path: "/api/auth/two-factor/verify-backup-code",
    operationId: "verifyBackupCode",
    access: "optional",
    tags: twoFactorTags,
    summary:
      "A sign-in's second step with a backup code, each usable once (sets the session cookie); signed in, it confirms this session for admin actions",
    body: verifyBackupCodeSchema,
    errors: [401, 429],
  }),
  disableTwoFactor: defineEndpoint({
    method: "POST",
    path: "/api/auth/two-factor/disable",
    operationId: "disableTwoFactor",
    access: "user",
    tags: twoFactorTags,
    summary: "Turn off two-factor sign-in (password again)",
    body: twoFactorPasswordSchema,
    errors: [429],
  }),
  generateBackupCodes: defineEndpoint({
    method: "POST",
    path: "/api/auth/two-factor/generate-backup-codes",
    operationId: "generateBackupCodes",
    access: "user",
    tags: twoFactorTags,
    summary: "Make 10 new backup codes (password again); the old ones stop working",
    body: twoFactorPasswordSchema,
    response: { 200: backupCodesSchema.loose() },
    errors: [429],
  }),
};
