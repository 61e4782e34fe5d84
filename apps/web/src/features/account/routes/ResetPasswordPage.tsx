import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { resetPasswordSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { PasswordField, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { useResetPassword } from "../api.ts";

const newPasswordSchema = resetPasswordSchema.pick({ password: true });

function NewPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const navigate = useNavigate();
  const form = useZodForm(newPasswordSchema, { password: "" });
  const onSubmit = async ({ password }: { password: string }) => {
    await reset.mutateAsync({ token, password });
    toast.success("Your password was changed and you are signed in");
    await navigate(paths.dashboard.root, { replace: true });
  };
  return (
    <CardPage>
      <Form form={form} onSubmit={onSubmit} className="card-body">
        <h1 className="card-title text-2xl">Choose a new password</h1>
        <PasswordField name="password" id="reset-password" label="New password" isNew />
        <FormError />
        <SubmitButton>Set password and sign in</SubmitButton>
      </Form>
    </CardPage>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  if (token) return <NewPasswordForm token={token} />;
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-4 text-2xl font-bold">Reset link not valid</h1>
      <div role="alert" className="alert alert-error">
        This reset link is invalid, already used or expired.
      </div>
      <Link to={paths.forgotPassword} className="btn mt-4">
        Ask for a new link
      </Link>
    </section>
  );
}
