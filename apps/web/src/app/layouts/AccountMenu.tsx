import { Gauge, LogOut, UserRound } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { User } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Avatar } from "../../components/ui/Avatar.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useSignOut } from "../../lib/authActions.ts";
import { setDataSaver, useDataSaver } from "../../lib/dataSaver.ts";
import { useDropdown } from "../../lib/useDropdown.ts";

/** The avatar button and its menu: Profile and Sign out. */
export function AccountMenu({ user }: { user: User }) {
  const { open, close, box, triggerProps } = useDropdown();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const dataSaver = useDataSaver();

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
        className="btn btn-ghost btn-circle size-11"
        aria-label={`Open account menu for ${user.name}`}
        aria-haspopup="menu"
      >
        <Avatar photo={user.photo} name={user.name} />
      </button>
      {open && (
        // As wide as the screen allows (less a margin), never wider: a long name or email is
        // cut with an ellipsis inside the box, and the items stay on screen with it.
        <div className="absolute right-0 z-50 mt-2 w-72 max-w-[calc(100vw-1rem)] rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300">
          <div className="flex min-w-0 items-center gap-3 px-3 py-2" data-testid="account-menu-who">
            <Avatar photo={user.photo} name={user.name} />
            <div className="min-w-0">
              <p className="truncate font-semibold text-base-content" title={user.name}>
                {user.name}
              </p>
              <p className="truncate text-sm text-base-content/70" title={user.email}>
                {user.email}
              </p>
            </div>
          </div>
          <ul role="menu" aria-label="Account" className="menu w-full border-t border-base-300 p-0 pt-2">
            <li role="none">
              <Link role="menuitem" to={paths.profile} onClick={close} className="min-h-11">
                <UserRound className="size-4" aria-hidden="true" />
                Profile
              </Link>
            </li>
            <li role="none">
              {/* On this device only: task pictures are not loaded, their category's icon shows. */}
              <button
                role="menuitemcheckbox"
                type="button"
                aria-checked={dataSaver}
                className="min-h-11 justify-between"
                onClick={() => setDataSaver(!dataSaver)}
              >
                <span className="flex items-center gap-2">
                  <Gauge className="size-4" aria-hidden="true" />
                  Data saver
                </span>
                <span
                  className={`badge badge-sm ${dataSaver ? "badge-primary" : "badge-ghost"}`}
                  aria-hidden="true"
                >
                  {dataSaver ? "On" : "Off"}
                </span>
              </button>
            </li>
            <li role="none">
              <button
                role="menuitem"
                type="button"
                className="min-h-11"
                onClick={() => void onSignOut()}
                disabled={signOut.isPending}
              >
                <LogOut className="size-4" aria-hidden="true" />
                Sign out
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
