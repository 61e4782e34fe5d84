import { House, Menu, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { NavLink, Outlet } from "react-router";
import { BRAND } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { CoinBalance } from "../../components/ui/CoinBalance.tsx";
import { OfflineBanner } from "../../components/ui/OfflineBanner.tsx";
import { Logo } from "../../components/ui/Logo.tsx";
import { NoticeGroup } from "../../components/ui/Notice.tsx";
import { ThemeSwitch } from "../../components/ui/ThemeSwitch.tsx";
import { VerifyEmailBanner } from "../../features/account/components/VerifyEmailBanner.tsx";
import { NotificationBell } from "../../features/notifications/NotificationBell.tsx";
import { useMe } from "../../lib/auth.ts";
import { AccountMenu } from "./AccountMenu.tsx";
import { DASHBOARD_MENU } from "./dashboardMenu.ts";

export function DashboardLayout() {
  const { data: user } = useMe();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const entries = user ? DASHBOARD_MENU[user.role] : [];
  const close = () => setDrawerOpen(false);

  // The phone drawer takes the focus when it opens, closes on Escape, and gives the focus
  // back to the button that opened it.
  useEffect(() => {
    if (!drawerOpen) return;
    const [aside, opener] = [drawer.current, openButton.current];
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setDrawerOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      const focused = document.activeElement;
      if (!focused || focused === document.body || aside?.contains(focused)) opener?.focus();
    };
  }, [drawerOpen]);

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
            ref={openButton}
            type="button"
            className="btn btn-ghost btn-square lg:hidden"
            aria-label="Open dashboard menu"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu aria-hidden="true" />
          </button>
          {/* Admins hold no coins: their header has no balance. */}
          <div className="flex flex-1 items-center gap-2">
            {user && user.role !== "admin" && (
              <>
                <span className="hidden text-sm text-base-content/70 min-[400px]:inline">
                  Available coins
                </span>
                <CoinBalance coins={user.coins} />
              </>
            )}
          </div>
          {user && (
            <div className="flex items-center gap-1 sm:gap-3">
              <div className="hidden text-right leading-tight sm:block">
                <p className="font-semibold">{user.name}</p>
                <p className="text-xs capitalize text-base-content/70">{user.role}</p>
              </div>
              <ThemeSwitch />
              <NotificationBell />
              <AccountMenu user={user} />
            </div>
          )}
        </header>
        <OfflineBanner />
        <main className="flex-1 p-4 sm:p-6">
          <NoticeGroup>
            {user && !user.email_verified && <VerifyEmailBanner email={user.email} role={user.role} />}
            <Outlet />
          </NoticeGroup>
        </main>
      </div>
      <div className="drawer-side z-40">
        {/* A click beside the drawer closes it; keyboards have the close button and Escape. */}
        <button type="button" className="drawer-overlay" onClick={close} tabIndex={-1} aria-hidden="true" />
        <aside ref={drawer} className="flex min-h-full w-64 flex-col bg-base-100">
          <div className="flex items-center justify-between border-b border-base-300 p-4">
            <Logo />
            <button
              ref={closeButton}
              type="button"
              className="btn btn-ghost btn-square lg:hidden"
              aria-label="Close dashboard menu"
              onClick={close}
              tabIndex={drawerOpen ? 0 : -1}
            >
              <X aria-hidden="true" />
            </button>
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
          <p className="p-4 text-xs text-base-content/70">
            © {new Date().getFullYear()} {BRAND}
          </p>
        </aside>
      </div>
    </div>
  );
}
