import { genericOAuth } from "better-auth/plugins";
import type { Database } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { adoptRemotePhoto } from "../users/service.ts";

/**
 * Google sign-in for the auth library. In production (GOOGLE_ISSUER_URL unset) it is the
 * library's google provider, with Google's endpoints built in. With GOOGLE_ISSUER_URL set
 * (the tests' local OpenID Connect provider) it is the generic OAuth plugin under the same
 * id, "google", configured from that issuer's discovery document: the same sign-in and
 * callback routes, PKCE, and a verified ID token (signature, issuer, audience, nonce).
 */
export function googleSignIn(env: Env) {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return { socialProviders: {}, plugins: [] };
  const credentials = { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET };
  if (!env.GOOGLE_ISSUER_URL) return { socialProviders: { google: credentials }, plugins: [] };
  const issuer = env.GOOGLE_ISSUER_URL.endsWith("/") ? env.GOOGLE_ISSUER_URL : `${env.GOOGLE_ISSUER_URL}/`;
  const plugin = genericOAuth({
    config: [
      {
        providerId: "google",
        name: "Google",
        ...credentials,
        discoveryUrl: new URL(".well-known/openid-configuration", issuer).href,
        scopes: ["openid", "email", "profile"],
        requireIdTokenVerification: true,
      },
    ],
  });
  return { socialProviders: {}, plugins: [plugin] };
}

/**
 * Rule R18 for users the auth library creates from Google: the photo Google names is
 * fetched once and stored by us, and the user never holds the foreign URL. The user is
 * created without a photo (inside the library's transaction, which a download must not hold
 * open); the URL waits here, by email, until the creation has committed.
 */
const photosToAdopt = new Map<string, string>();

export function setPhotoAside(user: { email: string; image?: string | null }): null {
  if (user.image) photosToAdopt.set(user.email, user.image);
  return null;
}

/** After the user exists: downloads, checks and stores the photo set aside; no photo when it cannot. */
export async function adoptPhotoSetAside(
  db: Database,
  user: { id: string; email: string },
  warn: (message: string) => void,
): Promise<void> {
  const url = photosToAdopt.get(user.email);
  if (!url) return;
  photosToAdopt.delete(user.email);
  const adopted = await adoptRemotePhoto(db, user.id, url);
  if (adopted.photo === null) warn(`Google sign-up: the profile photo was not kept (${adopted.reason})`);
}
