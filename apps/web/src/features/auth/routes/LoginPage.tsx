import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { signInSchema, type SignInFields } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, PasswordField, useZodForm } from "../../../components/form/Form.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { askedPath } from "../../../lib/auth.ts";
import { useSignIn } from "../../../lib/authActions.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { TwoFactorStep } from "../components/TwoFactorStep.tsx";
import { googleSignInError } from "../googleErrors.ts";

export function LoginPage() {
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const from = askedPath(location, search);
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
  const form = useZodForm(signInSchema, { email: "", password: "" });
  // A Google sign-in of an account with two-factor on comes back here for its code (rule R30).
  const [secondStep, setSecondStep] = useState(() => search.get("second_step") === "1");

  const onSubmit = async (values: SignInFields) => {
    const answer = await signIn.mutateAsync(values);
    if (answer.twoFactorRedirect) {
      setSecondStep(true);
      return;
    }
    toast.success("Signed in");
    // GuestOnly sends the user on to `from` once the session shows.
  };

  if (secondStep)
    return (
      <TwoFactorStep
        onCancel={() => {
          form.resetField("password");
          setSecondStep(false);
          // Back to the plain sign-in page, still going on to the page asked for.
          void navigate(paths.login, { replace: true, state: { from } });
        }}
      />
    );

  return (
    <AuthCard
      form={form}
      onSubmit={onSubmit}
      onError={(error) => {
        toast.error(errorMessage(error, "Sign-in failed"));
        form.resetField("password");
      }}
      title="Sign in to your account"
      submitLabel="Sign in"
      google={{ returnTo: from }}
      other={{ to: paths.register, label: "Don't have an account? Register" }}
    >
      <Field name="email" id="login-email" label="Email" type="email" autoComplete="email" />
      <PasswordField name="password" id="login-password" label="Password" />
      <Link to={paths.forgotPassword} className="link link-hover self-start text-sm">
        Forgot password?
      </Link>
    </AuthCard>
  );
}
