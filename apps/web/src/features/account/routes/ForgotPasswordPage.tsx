import { Link } from "react-router";
import { passwordResetRequestSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { useRequestReset } from "../api.ts";

const emailSchema = passwordResetRequestSchema.pick({ email: true });

export function ForgotPasswordPage() {
  const request = useRequestReset();
  const form = useZodForm(emailSchema, { email: "" });
  return (
    <CardPage>
      {request.isSuccess ? (
        <div className="card-body" role="status">
          <h1 className="card-title text-2xl">Check your mail</h1>
          <p>
            If an account exists for {request.variables}, we sent it a link to reset the password. The link
            works once, for an hour.
          </p>
          <Link to={paths.login} className="link link-primary">
            Back to sign in
          </Link>
        </div>
      ) : (
        <Form form={form} onSubmit={({ email }) => request.mutateAsync(email)} className="card-body">
          <h1 className="card-title text-2xl">Forgot password?</h1>
          <p className="text-sm text-base-content/70">
            Enter your account's email and we will send you a link to choose a new password.
          </p>
          <Field name="email" id="forgot-email" label="Email" type="email" autoComplete="email" />
          <FormError />
          <SubmitButton>Send reset link</SubmitButton>
          <Link to={paths.login} className="link text-sm">
            Back to sign in
          </Link>
        </Form>
      )}
    </CardPage>
  );
}
