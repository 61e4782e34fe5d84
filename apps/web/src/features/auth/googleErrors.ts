/**
 * What a failed Google sign-in means to the person, from the `error` (and
 * `error_description`) the server's auth library puts on /login when it sends them back.
 */
export function googleSignInError(code: string, description: string | null): string {
  switch (code) {
    case "access_denied":
      return "Google sign-in was cancelled. Choose Google again to sign in, or use your email and password.";
    case "state_not_found":
    case "state_mismatch":
    case "please_restart_the_process":
    case "invalid_callback_request":
      return "Google sign-in expired or was interrupted. Please try again.";
    case "email_not_found":
      return "Google did not share your email address, which TaskMint needs to sign you in.";
    default:
      return description
        ? `Google sign-in failed: ${description}`
        : "Google sign-in failed. Please try again.";
  }
}
