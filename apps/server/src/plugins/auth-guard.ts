import type { Role } from "@taskmint/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import { fromNodeHeaders } from "better-auth/node";
import { AppError } from "../lib/errors.ts";
import { apiKeyCredentials } from "./api-key-auth.ts";

export interface SessionUser {
  id: string;
  role: Role;
  sessionId: string;
  /** Decision 018: whether the user turned on two-factor sign-in. */
  twoFactorEnabled: boolean;
  /** Rule R30: whether this session passed a second factor itself. */
  twoFactorVerified: boolean;
  /** Set when an API key, not a session, authenticated the request (decision 033). */
  apiKeyId?: string;
}

/** The signed-in user of this request, or null; read once per request. */
export async function sessionUser(request: FastifyRequest): Promise<SessionUser | null> {
  // A request presenting an API key is authenticated by the key alone (api-key-auth.ts), never by its cookie.
  if (request.sessionUser === undefined && apiKeyCredentials(request) !== null) request.sessionUser = null;
  if (request.sessionUser === undefined) {
    const headers = fromNodeHeaders(request.headers);
    const read = await request.server.readSession(headers, new Date());
    if (read === "refresh") {
      // The auth library extends the session as it reads it.
      const session = await request.server.auth.api.getSession({ headers });
      request.sessionUser = session
        ? {
            id: session.user.id,
            role: session.user.role as Role,
            sessionId: session.session.id,
            // The plugin's field, which the app's Auth type does not carry (its plugin list is built at runtime).
            twoFactorEnabled: (session.user as { twoFactorEnabled?: boolean }).twoFactorEnabled === true,
            twoFactorVerified:
              (session.session as { twoFactorVerified?: boolean }).twoFactorVerified === true,
          }
        : null;
    } else {
      request.sessionUser = read;
    }
    const user = request.sessionUser;
    if (user && request.deviceId) {
      const sighting = {
        userId: user.id,
        deviceId: request.deviceId,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      };
      // A fraud signal, not a gate: a failure to record it never fails the request.
      await request.server
        .recordSighting(user.sessionId, sighting, request.server.clock())
        .catch((error: unknown) => {
          request.log.warn({ err: error }, "could not record the sign-in's device and address");
        });
    }
  }
  return request.sessionUser;
}

/** A preHandler that lets through signed-in users whose role is one of `roles` (any role when none given). */
export function requireRole(...roles: Role[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const user = await sessionUser(request);
    if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue");
    if (roles.length > 0 && !roles.includes(user.role)) {
      throw new AppError("FORBIDDEN", "Your role may not do this");
    }
  };
}

/**
 * A preHandler for the admin actions that move coins or change access (rule R30: withdrawal and
 * appeal decisions, roles, deleting users and tasks): the admin needs two-factor sign-in on and
 * a session that passed it itself (decisions 018 and 026).
 */
export async function requireAdminWithTwoFactor(request: FastifyRequest, reply: FastifyReply) {
  await requireRole("admin")(request, reply);
  const user = await currentUser(request);
  if (!user.twoFactorEnabled)
    throw new AppError(
      "TWO_FACTOR_REQUIRED",
      "Turn on two-factor sign-in in your profile (Security) before moving coins or changing access",
      { reason: "two_factor_off" },
    );
  if (!user.twoFactorVerified)
    throw new AppError(
      "TWO_FACTOR_REQUIRED",
      "This session began without your authenticator code: confirm a code in your profile (Security), or sign in again, before moving coins or changing access",
      { reason: "session_not_verified" },
    );
}

/** The signed-in user, for handlers behind requireRole(). */
export async function currentUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await sessionUser(request);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue");
  return user;
}
