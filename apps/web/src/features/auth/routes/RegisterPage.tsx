import { useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import type { z } from "zod";
import { registerFieldsSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, PasswordField, useZodForm } from "../../../components/form/Form.tsx";
import { imageFiles } from "../../../components/form/imageFiles.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useRegister } from "../../../lib/auth.ts";
import { AuthCard } from "../components/AuthCard.tsx";

const registerFormSchema = registerFieldsSchema.extend({ photo: imageFiles("photo") });

export function RegisterPage() {
  const register = useRegister();
  const form = useZodForm(registerFormSchema, { name: "", email: "", password: "" });
  const chosenRole = useWatch({ control: form.control, name: "role" });

  const onSubmit = async ({ photo, ...fields }: z.output<typeof registerFormSchema>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const file = photo[0];
    if (file) body.append("photo", file);
    await register.mutateAsync(body);
    toast.success("Account created");
    // GuestOnly sends the new user on to their home once the session shows.
  };

  return (
    <AuthCard
      form={form}
      onSubmit={onSubmit}
      onError={(error) => toast.error(errorMessage(error, "Registration failed"))}
      title="Register your account"
      submitLabel="Register"
      google={{ role: chosenRole, returnTo: paths.dashboard.root }}
      other={{ to: paths.login, label: "Already have an account? Sign in" }}
    >
      <Field name="name" id="register-name" label="Your name" autoComplete="name" />
      <Field as="select" name="role" id="register-role" label="Role" defaultValue="">
        <option value="" disabled>
          Select your role
        </option>
        <option value="worker">Worker</option>
        <option value="buyer">Buyer</option>
      </Field>
      <Field name="photo" id="register-photo" label="Upload photo" type="file" accept="image/*" />
      <Field name="email" id="register-email" label="Email" type="email" autoComplete="email" />
      <PasswordField name="password" id="register-password" label="Password" isNew />
    </AuthCard>
  );
}
