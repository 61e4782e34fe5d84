import { useState } from "react";

/** Up to two letters for a name: the first of its first and last words ("Ann Marie Lee" -> "AL"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const first = words[0];
  if (!first) return "?";
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string) => Array.from(word)[0] ?? "";
  return `${letter(first)}${last ? letter(last) : ""}`.toLocaleUpperCase();
}

// Semantic pairs, so both themes keep their contrast; a name always gets the same one.
const TONES = [
  "bg-primary text-primary-content",
  "bg-secondary text-secondary-content",
  "bg-accent text-accent-content",
  "bg-neutral text-neutral-content",
  "bg-info text-info-content",
];

function toneOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return TONES[hash % TONES.length] ?? "bg-primary text-primary-content";
}

/**
 * A user's photo, or their initials where they have none (rule R29: the sign-up photo is
 * optional). The initials also stand beneath a photo while it loads and in its place if it
 * fails, so the circle is never empty. Decorative: the name is always written beside it or on
 * its button.
 */
export function Avatar({
  photo,
  name,
  size = "size-10",
  loading,
}: {
  photo: string | null;
  name: string;
  size?: string;
  loading?: "lazy" | "eager";
}) {
  // The photo that failed to load: a new photo (the user uploads another) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  if (!photo || failed === photo) return <Initials name={name} className={size} />;
  return (
    <span className={`${size} relative inline-flex shrink-0`} title={name}>
      <Initials name={name} className="absolute inset-0" />
      <img
        src={photo}
        alt=""
        loading={loading}
        onError={() => setFailed(photo)}
        className="absolute inset-0 size-full rounded-full object-cover ring-2 ring-primary/30"
      />
    </span>
  );
}

function Initials({ name, className }: { name: string; className: string }) {
  return (
    <span
      className={`${className} inline-flex shrink-0 select-none items-center justify-center rounded-full ${toneOf(name)}`}
      title={name}
      aria-hidden="true"
      data-testid="avatar-initials"
    >
      {/* Scales with the circle whatever its size. */}
      <svg viewBox="0 0 40 40" className="size-full" aria-hidden="true">
        <text
          x="20"
          y="20"
          dy="0.35em"
          textAnchor="middle"
          fill="currentColor"
          fontSize="15"
          fontWeight="600"
          fontFamily="inherit"
        >
          {initials(name)}
        </text>
      </svg>
    </span>
  );
}
