import { House, Menu } from "lucide-react";
import { useState } from "react";
import { NavLink, Outlet } from "react-router";
import { BRAND } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { Avatar } from "../../components/ui/Avatar.tsx";
import { CoinBalance } from "../../components/ui/CoinBalance.tsx";
import { Logo } from "../../components/ui/Logo.tsx";
import { NotificationBell } from "../../features/notifications/NotificationBell.tsx";
import { useMe } from "../../lib/auth.ts";
import { DASHBOARD_MENU } from "./dashboardMenu.ts";

export function DashboardLayout() {
  const { data: user } = useMe();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const entries = user ? DASHBOARD_MENU[user.role] : [];
  const close = () => setDrawerOpen(false);

  return (
    <div className="drawer lg:drawer-open">
      <input
        id="dashboard-drawer"
        type="checkbox"
        className="drawer-toggle"
        checked={drawerOpen}
        onChange={(event) => setDrawerOpen(event.target.checked)}
        tabIndex={-1}
        aria-hidden="true"
      />
      <div className="drawer-content flex min-h-screen flex-col bg-base-200">
        <header
          className="navbar sticky top-0 z-30 gap-2 border-b border-base-300 bg-base-100 px-4"
          data-testid="dashboard-topbar"
        >
          <button
            type="button"
            className="btn btn-ghost btn-square lg:hidden"
            aria-label="Open dashboard menu"
            onClick={() => setDrawerOpen(true)}
          >
            <Menu aria-hidden="true" />
          </button>
          <div className="flex flex-1 items-center gap-2">
            <span className="text-sm text-base-content/70">Available Coins</span>
            {user && <CoinBalance coins={user.coins} />}
          </div>
          {user && (
            <div className="flex items-center gap-3">
              <div className="hidden text-right leading-tight sm:block">
                <p className="font-semibold">{user.name}</p>
                <p className="text-xs capitalize text-base-content/70">{user.role}</p>
              </div>
              <Avatar photo={user.photo} name={user.name} />
              <NotificationBell />
            </div>
          )}
        </header>
        <main className="flex-1 p-4 sm:p-6">
          <Outlet />
        </main>
      </div>
      <div className="drawer-side z-40">
        <button
          type="button"
          className="drawer-overlay"
          aria-label="Close dashboard menu"
          onClick={close}
          tabIndex={drawerOpen ? 0 : -1}
        />
        <aside className="flex min-h-full w-64 flex-col bg-base-100">
          <div className="border-b border-base-300 p-4">
            <Logo />
          </div>
          <nav aria-label="Dashboard menu" className="flex-1">
            <ul className="menu w-full gap-1 p-2">
              {entries.map((entry) => (
                <li key={entry.to}>
                  <NavLink
                    to={entry.to}
                    onClick={close}
                    className={({ isActive }) => (isActive ? "bg-primary/10 font-semibold text-primary" : "")}
                  >
                    {entry.label}
                  </NavLink>
                </li>
              ))}
              <li className="mt-2 border-t border-base-300 pt-2">
                <NavLink to={paths.home} end onClick={close} className="">
                  <House className="size-4" aria-hidden="true" />
                  Home
                </NavLink>
              </li>
            </ul>
          </nav>
          <p className="p-4 text-xs text-base-content/60">
            © {new Date().getFullYear()} {BRAND}
          </p>
        </aside>
      </div>
    </div>
  );
}
