import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useEffect } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { signInSchema, type SignInFields } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { returnPath, useSignIn } from "../../../lib/auth.ts";
import { Field } from "../components/Field.tsx";
import { GoogleButton } from "../components/GoogleButton.tsx";
import { googleSignInError } from "../googleErrors.ts";

export function LoginPage() {
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  // A route guard passes the page asked for in the state; a failed Google sign-in, in the query.
  const from = returnPath((location.state as { from?: string } | null)?.from ?? search.get("from"));
  const googleError = search.get("error");
  const googleErrorDescription = search.get("error_description");

  useEffect(() => {
    if (!googleError) return;
    // One toast however often the effect runs; the query goes, so a reload does not repeat it.
    toast.error(googleSignInError(googleError, googleErrorDescription), {
      toastId: `google-sign-in-${googleError}`,
    });
    void navigate(paths.login, { replace: true, state: { from } });
  }, [googleError, googleErrorDescription, from, navigate]);
  const form = useForm<SignInFields>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: "", password: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    signIn.mutateAsync(values).then(
      async () => {
        toast.success("Login succesFully");
        form.reset();
        await navigate(from, { replace: true });
      },
      (error: unknown) => {
        toast.error(errorMessage(error, "Login failed"));
        form.resetField("password");
      },
    ),
  );

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="card bg-base-100 shadow-md ring-1 ring-base-300">
        <form className="card-body" onSubmit={(event) => void onSubmit(event)} noValidate>
          <h1 className="card-title text-2xl">Login your account</h1>
          <Field id="login-email" label="Email" error={errors.email?.message}>
            <input
              id="login-email"
              type="email"
              autoComplete="email"
              className="input w-full"
              aria-invalid={Boolean(errors.email)}
              {...form.register("email")}
            />
          </Field>
          <Field id="login-password" label="Password" error={errors.password?.message}>
            <input
              id="login-password"
              type="password"
              autoComplete="current-password"
              className="input w-full"
              aria-invalid={Boolean(errors.password)}
              {...form.register("password")}
            />
          </Field>
          <Link to={paths.forgotPassword} className="link link-hover self-start text-sm">
            Forgot password?
          </Link>
          <button type="submit" className="btn btn-primary mt-2" disabled={signIn.isPending}>
            {signIn.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Login
          </button>
          <div className="divider my-1">or</div>
          <GoogleButton returnTo={from} />
          <p className="mt-2 text-center text-sm">
            <Link to={paths.register} className="link link-primary">
              Don't Have An Account?
            </Link>
          </p>
        </form>
      </div>
    </section>
  );
}
