import { useState } from "react";
import { toast } from "react-toastify";
import { MAX_IMAGE_BYTES, nameSchema, passwordSchema } from "@taskmint/shared";
import { Avatar } from "../../../components/ui/Avatar.tsx";
import { CoinBalance } from "../../../components/ui/CoinBalance.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { useChangePassword, useUpdateProfile } from "../api.ts";

function ProfileForm({ name: currentName }: { name: string }) {
  const update = useUpdateProfile();
  const [name, setName] = useState(currentName);
  const [photo, setPhoto] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = nameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid name");
    if (photo && (!photo.type.startsWith("image/") || photo.size > MAX_IMAGE_BYTES))
      return setError("The photo must be an image of at most 5 MB");
    setError(null);
    const body = new FormData();
    body.append("name", parsed.data);
    if (photo) body.append("photo", photo);
    update.mutate(body, {
      onSuccess: () => toast.success("Profile updated"),
      onError: (failure) => toast.error(errorMessage(failure, "Failed to update your profile")),
    });
  };

  return (
    <form className="card bg-base-100 shadow-sm" onSubmit={onSubmit} noValidate>
      <div className="card-body">
        <h2 className="card-title">Edit profile</h2>
        <div className="fieldset">
          <label htmlFor="profile-name" className="fieldset-legend">
            Name
          </label>
          <input
            id="profile-name"
            className="input w-full"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="fieldset">
          <label htmlFor="profile-photo" className="fieldset-legend">
            New photo
          </label>
          <input
            id="profile-photo"
            type="file"
            accept="image/*"
            className="file-input w-full"
            onChange={(event) => setPhoto(event.target.files?.[0] ?? null)}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-error">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={update.isPending}>
          {update.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Save profile
        </button>
      </div>
    </form>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!current) return setError("Enter your current password");
    const parsed = passwordSchema.safeParse(next);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid password");
    setError(null);
    change.mutate(
      { currentPassword: current, newPassword: parsed.data },
      {
        onSuccess: () => {
          toast.success("Password changed; other devices were signed out");
          setCurrent("");
          setNext("");
        },
        onError: (failure) => setError(errorMessage(failure, "Failed to change your password")),
      },
    );
  };

  return (
    <form className="card bg-base-100 shadow-sm" onSubmit={onSubmit} noValidate>
      <div className="card-body">
        <h2 className="card-title">Change password</h2>
        <div className="fieldset">
          <label htmlFor="current-password" className="fieldset-legend">
            Current password
          </label>
          <input
            id="current-password"
            type="password"
            autoComplete="current-password"
            className="input w-full"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        </div>
        <div className="fieldset">
          <label htmlFor="new-password" className="fieldset-legend">
            New password
          </label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            className="input w-full"
            value={next}
            onChange={(event) => setNext(event.target.value)}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-error">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          Change password
        </button>
      </div>
    </form>
  );
}

export function ProfilePage() {
  const { data: user } = useMe();
  if (!user) return <Spinner />;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <section className="card bg-base-100 shadow-sm">
        <div className="card-body flex-row flex-wrap items-center gap-6">
          <Avatar photo={user.photo} name={user.name} size="size-24" />
          <div>
            <h1 className="text-2xl font-bold">{user.name}</h1>
            <p className="text-base-content/70">{user.email}</p>
            <p className="mt-1 flex items-center gap-2">
              <span className="badge badge-outline capitalize">{user.role}</span>
              <CoinBalance coins={user.coins} />
            </p>
          </div>
        </div>
      </section>
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <ProfileForm key={user.name} name={user.name} />
        <PasswordForm />
      </div>
    </div>
  );
}
