import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { User } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Avatar } from "../../components/ui/Avatar.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useSignOut } from "../../lib/auth.ts";
import { useDropdown } from "../../lib/useDropdown.ts";

/** The avatar button and its menu: Profile and Sign out. */
export function AccountMenu({ user }: { user: User }) {
  const { open, close, box, triggerProps } = useDropdown();
  const signOut = useSignOut();
  const navigate = useNavigate();

  // Home first: signing out on a dashboard page would otherwise send its guard to /login,
  // unmounting this menu before it could answer.
  const onSignOut = async () => {
    close();
    await navigate(paths.home);
    try {
      await signOut.mutateAsync();
      toast.success("Signed out");
    } catch (error) {
      toast.error(errorMessage(error, "Sign out failed"));
    }
  };

  return (
    <div className="relative" ref={box}>
      <button
        {...triggerProps}
        className="btn btn-ghost btn-circle"
        aria-label={`Open account menu for ${user.name}`}
        aria-haspopup="menu"
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
            <Link role="menuitem" to={paths.profile} onClick={close}>
              Profile
            </Link>
          </li>
          <li role="none">
            <button
              role="menuitem"
              type="button"
              onClick={() => void onSignOut()}
              disabled={signOut.isPending}
            >
              Sign out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
