import { z } from "zod";
import { PASSWORD_MIN_LENGTH, PASSWORD_RULE_MESSAGE, ROLES, SELF_REGISTER_ROLES } from "./constants.ts";
import { characterCount, textSchema, unstorableCharacters } from "./text.ts";

/** Longest password accepted: hashing is deliberately slow, so its input is bounded. */
export const PASSWORD_MAX_LENGTH = 128;

/** The spec's password rule: at least 6 characters, an uppercase and a lowercase letter. */
export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine(
    (value) => unstorableCharacters(value) === null,
    "Password must not contain NUL or broken characters",
  )
  .refine(
    (value) => characterCount(value) >= PASSWORD_MIN_LENGTH && /[A-Z]/.test(value) && /[a-z]/.test(value),
    PASSWORD_RULE_MESSAGE,
  );

export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((value) => value.toLowerCase());

export const nameSchema = textSchema("Name", { max: 80 });

/** The text fields of POST /api/register (the photo is a file, checked separately). */
export const registerFieldsSchema = z.object({
  name: nameSchema,
  role: z.enum(SELF_REGISTER_ROLES, { error: "Select your role" }),
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterFields = z.infer<typeof registerFieldsSchema>;

export const signInSchema = z.object({
  email: textSchema("Email", { max: 254 }),
  password: textSchema("Password", { max: PASSWORD_MAX_LENGTH, trim: false }),
});

export type SignInFields = z.infer<typeof signInSchema>;

/** A page of this app to return to: a path, never another origin. */
export const returnPathSchema = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])\S*$/, "Must be a path of this site")
  .refine((value) => unstorableCharacters(value) === null, "Must be a path of this site");

/** Body of POST /api/auth/sign-in/email. */
export const signInRequestSchema = signInSchema
  .extend({ rememberMe: z.boolean().optional(), callbackURL: returnPathSchema.optional() })
  .strict();

/** Body of POST /api/auth/sign-in/social. */
export const socialSignInSchema = z
  .object({
    provider: z.literal("google"),
    callbackURL: returnPathSchema.optional(),
    newUserCallbackURL: returnPathSchema.optional(),
    errorCallbackURL: returnPathSchema.optional(),
    disableRedirect: z.boolean().optional(),
    // Rule R1: the role chosen on the register page, carried through the OAuth state.
    additionalData: z
      .object({ role: z.enum(SELF_REGISTER_ROLES).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type SocialSignInRequest = z.infer<typeof socialSignInSchema>;

/** Body of POST /api/auth/change-password (the new password's rule is checked by the form and the library). */
export const changePasswordSchema = z
  .object({
    currentPassword: textSchema("Current password", { max: PASSWORD_MAX_LENGTH, trim: false }),
    newPassword: textSchema("New password", { max: PASSWORD_MAX_LENGTH, trim: false }),
    revokeOtherSessions: z.boolean().optional(),
  })
  .strict();
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

/** Body of POST /api/auth/request-password-reset; the server also requires `redirectTo` to be its own page. */
export const passwordResetRequestSchema = z
  .object({ email: emailSchema, redirectTo: z.string().max(500).optional() })
  .strict();
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;

export const resetRequestedSchema = z.object({ status: z.boolean(), message: z.string() });

/** A reset link's token as the auth library makes it: letters and digits. */
export const resetTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "Invalid or expired link");

/** Body of POST /api/password/reset. */
export const resetPasswordSchema = z.object({ token: resetTokenSchema, password: passwordSchema }).strict();
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  role: z.enum(ROLES),
  coins: z.number().int(),
  /** Two-factor sign-in is on (decision 018); admins need it to decide withdrawals or change roles. */
  two_factor_enabled: z.boolean(),
  /** The user proved they read this address (rule R28); workers need it to withdraw. */
  email_verified: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** Answer of registering, signing in by reset, reading or editing the profile. */
export const userAnswerSchema = z.object({ user: userSchema });
export type UserAnswer = z.infer<typeof userAnswerSchema>;

/**
 * Answer of GET /api/me: the user, whether this session passed a second factor (rule R30), and
 * the newest notification as this answer was made. The notification stream's first message
 * names the newest one as it connects: when the two differ, something happened in between and
 * what the page read before the stream connected is refreshed.
 */
export const meAnswerSchema = userAnswerSchema.extend({
  session: z.object({ two_factor_verified: z.boolean() }),
  latest_notification_id: z.string().nullable(),
});
export type MeAnswer = z.infer<typeof meAnswerSchema>;

export const errorCodes = [
  "VALIDATION",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "EMAIL_TAKEN",
  "INSUFFICIENT_COINS",
  "ALREADY_SUBMITTED",
  "NO_SLOTS_LEFT",
  "ALREADY_DECIDED",
  "TASK_CLOSED",
  "RESERVATION_LIMIT",
  "NO_RESERVATION",
  "NOT_QUALIFIED",
  "TWO_FACTOR_REQUIRED",
  "EMAIL_NOT_VERIFIED",
  "APPEAL_CLOSED",
  "IDEMPOTENCY_MISMATCH",
  "RISK_CONFIRMATION_REQUIRED",
  "LIMIT_REACHED",
  "TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL",
  "DATABASE_UNAVAILABLE",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
