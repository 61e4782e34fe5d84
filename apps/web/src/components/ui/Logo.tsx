import { BRAND } from "@taskmint/shared/constants";
import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";

export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <circle cx="32" cy="32" r="18" fill="#fbbf24" />
      <path d="M24 30h16M32 22v20" stroke="#0f766e" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}

/** The logo and brand name, linking home. */
export function Logo() {
  return (
    <Link to={paths.home} className="flex items-center gap-2 text-xl font-bold text-primary">
      <LogoMark />
      <span>{BRAND}</span>
    </Link>
  );
}
