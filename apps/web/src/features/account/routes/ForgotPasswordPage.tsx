import { useState } from "react";
import { Link } from "react-router";
import { z } from "zod";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { useRequestReset } from "../api.ts";

export function ForgotPasswordPage() {
  const request = useRequestReset();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!z.email().safeParse(email.trim()).success) return setError("Enter a valid email address");
    setError(null);
    request.mutate(email.trim(), {
      onError: (failure) => setError(errorMessage(failure, "Something went wrong, please try again")),
    });
  };

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="card bg-base-100 shadow-md ring-1 ring-base-300">
        {request.isSuccess ? (
          <div className="card-body" role="status">
            <h1 className="card-title text-2xl">Check your mail</h1>
            <p>
              If an account exists for {email.trim()}, we sent it a link to reset the password. The link works
              once, for an hour.
            </p>
            <Link to={paths.login} className="link link-primary">
              Back to login
            </Link>
          </div>
        ) : (
          <form className="card-body" onSubmit={onSubmit} noValidate>
            <h1 className="card-title text-2xl">Forgot password?</h1>
            <p className="text-sm text-base-content/70">
              Enter your account's email and we will send you a link to choose a new password.
            </p>
            <div className="fieldset">
              <label htmlFor="forgot-email" className="fieldset-legend">
                Email
              </label>
              <input
                id="forgot-email"
                type="email"
                autoComplete="email"
                className="input w-full"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
            {error && (
              <p role="alert" className="text-sm text-error">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn-primary" disabled={request.isPending}>
              Send reset link
            </button>
            <Link to={paths.login} className="link text-sm">
              Back to login
            </Link>
          </form>
        )}
      </div>
    </section>
  );
}
