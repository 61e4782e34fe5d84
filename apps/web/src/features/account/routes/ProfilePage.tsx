import { toast } from "react-toastify";
import type { z } from "zod";
import { changePasswordSchema, passwordSchema, registerFieldsSchema } from "@taskmint/shared";
import { Field, PasswordField, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormCard } from "../../../components/form/FormCard.tsx";
import { optionalImageFiles } from "../../../components/form/imageFiles.ts";
import { WorkerLevelCard } from "../../../components/trust/WorkerLevelCard.tsx";
import { Avatar } from "../../../components/ui/Avatar.tsx";
import { CoinBalance } from "../../../components/ui/CoinBalance.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { useChangePassword, useUpdateProfile } from "../api.ts";
import { NotificationsSection } from "../components/NotificationsSection.tsx";
import { SecuritySection } from "../components/SecuritySection.tsx";

const profileSchema = registerFieldsSchema
  .pick({ name: true })
  .extend({ photo: optionalImageFiles("photo") });
// The library checks only that a new password is there; the form holds it to the site's rule.
const passwordFormSchema = changePasswordSchema
  .omit({ revokeOtherSessions: true })
  .extend({ newPassword: passwordSchema });

function ProfileForm({ name, hasPhoto }: { name: string; hasPhoto: boolean }) {
  const update = useUpdateProfile();
  const form = useZodForm(profileSchema, { name });
  const onSubmit = async (values: z.output<typeof profileSchema>) => {
    const body = new FormData();
    body.append("name", values.name);
    const photo = values.photo?.[0];
    if (photo) body.append("photo", photo);
    await update.mutateAsync(body);
    toast.success("Profile updated");
  };
  return (
    <FormCard
      form={form}
      onSubmit={onSubmit}
      onError={(error) => toast.error(errorMessage(error, "Failed to update your profile"))}
      title="Edit profile"
    >
      <Field name="name" id="profile-name" label="Name" />
      <Field
        name="photo"
        id="profile-photo"
        label={hasPhoto ? "New photo" : "Photo"}
        type="file"
        accept="image/*"
      />
      <SubmitButton>Save profile</SubmitButton>
    </FormCard>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const form = useZodForm(passwordFormSchema, { currentPassword: "", newPassword: "" });
  const onSubmit = async (values: z.output<typeof passwordFormSchema>) => {
    await change.mutateAsync(values);
    toast.success("Password changed; other devices were signed out");
    form.reset();
  };
  return (
    <FormCard form={form} onSubmit={onSubmit} title="Change password">
      <PasswordField name="currentPassword" id="current-password" label="Current password" />
      <PasswordField name="newPassword" id="new-password" label="New password" isNew />
      <FormError />
      <SubmitButton>Change password</SubmitButton>
    </FormCard>
  );
}

export function ProfilePage() {
  const { data: user } = useMe();
  if (!user) return <Spinner />;
  return (
    <div className="mx-auto max-w-4xl">
      <section className="card bg-base-100 shadow-sm">
        <div className="card-body flex-row flex-wrap items-center gap-4 sm:gap-6">
          <Avatar photo={user.photo} name={user.name} size="size-20 sm:size-24" />
          <div className="min-w-0 flex-1">
            <h1 className="break-words text-2xl font-bold">{user.name}</h1>
            <p className="break-all text-base-content/70">{user.email}</p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <span className="badge badge-outline capitalize">{user.role}</span>
              <CoinBalance coins={user.coins} />
            </p>
            {!user.photo && (
              // Rule R29: the photo is optional; Profile invites adding one.
              <p className="mt-2 text-sm text-base-content/70">
                Your initials show in place of a photo.{" "}
                <a href="#profile-photo" className="link link-primary">
                  Add a photo
                </a>{" "}
                so the people you work with recognise you.
              </p>
            )}
          </div>
        </div>
      </section>
      {user.role === "worker" && (
        <div className="mt-6">
          <WorkerLevelCard workerId={user.id} />
        </div>
      )}
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <ProfileForm key={user.name} name={user.name} hasPhoto={Boolean(user.photo)} />
        <PasswordForm />
      </div>
      <NotificationsSection user={user} />
      <SecuritySection twoFactorEnabled={user.two_factor_enabled} />
    </div>
  );
}
