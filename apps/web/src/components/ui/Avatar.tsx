import { UserRound } from "lucide-react";

export function Avatar({
  photo,
  name,
  size = "size-10",
}: {
  photo: string | null;
  name: string;
  size?: string;
}) {
  return photo ? (
    <img
      src={photo}
      alt=""
      title={name}
      className={`${size} rounded-full object-cover ring-2 ring-primary/30`}
    />
  ) : (
    <span className={`${size} flex items-center justify-center rounded-full bg-base-300`} title={name}>
      <UserRound className="size-3/5 text-base-content/70" aria-hidden="true" />
    </span>
  );
}
