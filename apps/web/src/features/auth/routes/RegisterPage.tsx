import { useWatch } from "react-hook-form";
import { useSearchParams } from "react-router";
import { toast } from "react-toastify";
import type { z } from "zod";
import { registerFieldsSchema } from "@taskmint/shared";
import { SELF_REGISTER_ROLES } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { Field, useZodForm } from "../../../components/form/Form.tsx";
import { optionalImageFiles } from "../../../components/form/imageFiles.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useRegister } from "../../../lib/authActions.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { RoleChoice } from "../components/RoleChoice.tsx";

// Rule R29: the photo is optional; the user's initials stand in until they add one.
const registerFormSchema = registerFieldsSchema.extend({ photo: optionalImageFiles("photo") });

export function RegisterPage() {
  const register = useRegister();
  // Home's "Start earning" and "Post a task" come with the role chosen (?role=worker|buyer).
  const asked = useSearchParams()[0].get("role");
  const role = SELF_REGISTER_ROLES.find((choice) => choice === asked);
  const form = useZodForm(registerFormSchema, { name: "", email: "", password: "", ...(role && { role }) });
  const chosenRole = useWatch({ control: form.control, name: "role" });

  const onSubmit = async ({ photo, ...fields }: z.output<typeof registerFormSchema>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const file = photo?.[0];
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
      <RoleChoice />
      <Field name="name" id="register-name" label="Your name" autoComplete="name" />
      <Field name="email" id="register-email" label="Email" type="email" autoComplete="email" />
      <NewPasswordField name="password" id="register-password" label="Password" />
      <Field
        name="photo"
        id="register-photo"
        label="Photo (optional)"
        type="file"
        accept="image/*"
        hint="Without one, your initials show. You can add it later."
      />
    </AuthCard>
  );
}
