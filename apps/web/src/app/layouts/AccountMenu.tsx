import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { User } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Avatar } from "../../components/ui/Avatar.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useSignOut } from "../../lib/auth.ts";

/** The avatar button and its menu: Profile and Sign Out. */
export function AccountMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const signOut = useSignOut();
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (
        event instanceof KeyboardEvent ? event.key === "Escape" : !box.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const onSignOut = () => {
    setOpen(false);
    signOut.mutate(undefined, {
      onSuccess: () => {
        toast.success("Sign Out successFully");
        void navigate(paths.home);
      },
      onError: (error) => toast.error(errorMessage(error, "Sign out failed")),
    });
  };

  return (
    <div className="relative" ref={box}>
      <button
        type="button"
        className="btn btn-ghost btn-circle"
        aria-label={`Open account menu for ${user.name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <Avatar photo={user.photo} name={user.name} />
      </button>
      {open && (
        <ul
          role="menu"
          className="menu absolute right-0 z-50 mt-2 w-52 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300"
        >
          <li className="menu-title truncate">{user.name}</li>
          <li role="none">
            <Link role="menuitem" to={paths.profile} onClick={() => setOpen(false)}>
              Profile
            </Link>
          </li>
          <li role="none">
            <button role="menuitem" type="button" onClick={onSignOut} disabled={signOut.isPending}>
              Sign Out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
