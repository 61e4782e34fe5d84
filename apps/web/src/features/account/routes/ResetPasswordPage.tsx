import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { passwordSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { useResetPassword } from "../api.ts";

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const reset = useResetPassword();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  if (!token) {
    return (
      <section className="mx-auto max-w-md px-4 py-10">
        <div role="alert" className="alert alert-error">
          This reset link is invalid, already used or expired.
        </div>
        <Link to={paths.forgotPassword} className="btn mt-4">
          Ask for a new link
        </Link>
      </section>
    );
  }

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid password");
    setError(null);
    reset.mutate(
      { token, password: parsed.data },
      {
        onSuccess: () => {
          toast.success("Your password was changed and you are signed in");
          void navigate(paths.dashboard.root, { replace: true });
        },
        onError: (failure) => setError(errorMessage(failure, "Failed to reset your password")),
      },
    );
  };

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <form className="card bg-base-100 shadow-md ring-1 ring-base-300" onSubmit={onSubmit} noValidate>
        <div className="card-body">
          <h1 className="card-title text-2xl">Choose a new password</h1>
          <div className="fieldset">
            <label htmlFor="reset-password" className="fieldset-legend">
              New password
            </label>
            <input
              id="reset-password"
              type="password"
              autoComplete="new-password"
              className="input w-full"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          {error && (
            <p role="alert" className="text-sm text-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={reset.isPending}>
            Set password and sign in
          </button>
        </div>
      </form>
    </section>
  );
}
