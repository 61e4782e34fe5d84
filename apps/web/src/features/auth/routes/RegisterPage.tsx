import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import { z } from "zod";
import { MAX_IMAGE_BYTES, PASSWORD_RULE_MESSAGE, registerFieldsSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { useRegister } from "../../../lib/auth.ts";
import { Field } from "../components/Field.tsx";
import { GoogleButton } from "../components/GoogleButton.tsx";

const registerFormSchema = registerFieldsSchema.extend({
  role: z.enum(["worker", "buyer"], { error: "Select your role" }),
  photo: z
    .custom<FileList>((value) => value instanceof FileList && value.length > 0, "Photo is required")
    .refine((files) => files[0]?.type.startsWith("image/"), "The photo must be an image")
    .refine((files) => (files[0]?.size ?? 0) <= MAX_IMAGE_BYTES, "Images must be at most 5 MB"),
});
type RegisterForm = z.input<typeof registerFormSchema>;
type RegisterValues = z.output<typeof registerFormSchema>;

const fields = ["name", "role", "email", "password", "photo"] as const;

export function RegisterPage() {
  const register = useRegister();
  const navigate = useNavigate();
  const form = useForm<RegisterForm, unknown, RegisterValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { name: "", email: "", password: "" },
  });
  const { errors } = form.formState;
  const chosenRole = useWatch({ control: form.control, name: "role" });

  const onInvalid = () => {
    if (form.formState.errors.password?.message === PASSWORD_RULE_MESSAGE) toast.error(PASSWORD_RULE_MESSAGE);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const body = new FormData();
    body.append("name", values.name);
    body.append("role", values.role);
    body.append("email", values.email);
    body.append("password", values.password);
    const photo = values.photo[0];
    if (photo) body.append("photo", photo);
    try {
      await register.mutateAsync(body);
      toast.success("Register Successfully");
      await navigate(paths.dashboard.root);
    } catch (error) {
      toast.error(errorMessage(error, "Registration failed"));
      if (error instanceof ApiError && error.details) {
        for (const field of fields) {
          const message = error.details[field];
          if (message) form.setError(field, { message });
        }
      }
    }
  }, onInvalid);

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="card bg-base-100 shadow-md ring-1 ring-base-300">
        <form className="card-body" onSubmit={(event) => void onSubmit(event)} noValidate>
          <h1 className="card-title text-2xl">Register your account</h1>
          <Field id="register-name" label="Your Name" error={errors.name?.message}>
            <input
              id="register-name"
              type="text"
              autoComplete="name"
              className="input w-full"
              aria-invalid={Boolean(errors.name)}
              {...form.register("name")}
            />
          </Field>
          <Field id="register-role" label="Role" error={errors.role?.message}>
            <select
              id="register-role"
              className="select w-full"
              defaultValue=""
              aria-invalid={Boolean(errors.role)}
              {...form.register("role")}
            >
              <option value="" disabled>
                Select your role
              </option>
              <option value="worker">Worker</option>
              <option value="buyer">Buyer</option>
            </select>
          </Field>
          <Field id="register-photo" label="Upload Photo" error={errors.photo?.message}>
            <input
              id="register-photo"
              type="file"
              accept="image/*"
              className="file-input w-full"
              aria-invalid={Boolean(errors.photo)}
              {...form.register("photo")}
            />
          </Field>
          <Field id="register-email" label="Email" error={errors.email?.message}>
            <input
              id="register-email"
              type="email"
              autoComplete="email"
              className="input w-full"
              aria-invalid={Boolean(errors.email)}
              {...form.register("email")}
            />
          </Field>
          <Field id="register-password" label="Password" error={errors.password?.message}>
            <input
              id="register-password"
              type="password"
              autoComplete="new-password"
              className="input w-full"
              aria-invalid={Boolean(errors.password)}
              {...form.register("password")}
            />
          </Field>
          <button type="submit" className="btn btn-primary mt-2" disabled={register.isPending}>
            {register.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Register
          </button>
          <div className="divider my-1">or</div>
          <GoogleButton role={chosenRole} returnTo={paths.dashboard.root} />
          <p className="mt-2 text-center text-sm">
            <Link to={paths.login} className="link link-primary">
              Already Have An Account?
            </Link>
          </p>
        </form>
      </div>
    </section>
  );
}
