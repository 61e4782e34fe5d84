import { Menu, X } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { BRAND } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { CoinBalance } from "../../components/ui/CoinBalance.tsx";
import { ThemeSwitch } from "../../components/ui/ThemeSwitch.tsx";
import { Logo } from "../../components/ui/Logo.tsx";
import { OfflineBanner } from "../../components/ui/OfflineBanner.tsx";
import { FacebookIcon, GithubIcon, LinkedinIcon } from "../../components/ui/SocialIcons.tsx";
import { useMe, useServerConfig } from "../../lib/auth.ts";

// Only signed-in users see it; visitors' first bundle leaves it (and react-toastify) out.
const AccountMenu = lazy(() =>
  import("./AccountMenu.tsx").then((module) => ({ default: module.AccountMenu })),
);

const navClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? "bg-primary/10 font-semibold text-primary" : "";

function NavLinks({
  signedIn,
  repositoryUrl,
  onNavigate,
}: {
  signedIn: boolean;
  repositoryUrl?: string;
  onNavigate?: () => void;
}) {
  return (
    <>
      <li>
        <NavLink to={paths.home} end className={navClass} onClick={onNavigate}>
          Home
        </NavLink>
      </li>
      <li>
        <NavLink to={paths.allTasks} className={navClass} onClick={onNavigate}>
          All Tasks
        </NavLink>
      </li>
      <li>
        <NavLink to={paths.about} className={navClass} onClick={onNavigate}>
          About Us
        </NavLink>
      </li>
      {signedIn ? (
        <li>
          <NavLink to={paths.dashboard.root} className={navClass} onClick={onNavigate}>
            Dashboard
          </NavLink>
        </li>
      ) : (
        <>
          <li>
            <NavLink to={paths.login} className={navClass} onClick={onNavigate}>
              Sign in
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.register} className={navClass} onClick={onNavigate}>
              Register
            </NavLink>
          </li>
        </>
      )}
      {repositoryUrl && (
        <li>
          <a href={repositoryUrl} target="_blank" rel="noopener noreferrer">
            Join as Developer
          </a>
        </li>
      )}
    </>
  );
}

function TopBar() {
  const me = useMe();
  const config = useServerConfig();
  const [menuOpen, setMenuOpen] = useState(false);
  const user = me.data ?? null;
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <nav className="navbar mx-auto max-w-7xl gap-2 px-4" aria-label="Main">
        <div className="navbar-start gap-1">
          <div className="lg:hidden">
            <button
              type="button"
              className="btn btn-ghost btn-square"
              aria-label={menuOpen ? "Close menu" : "Open menu"}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((value) => !value)}
            >
              {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            </button>
          </div>
          <Logo />
        </div>
        <div className="navbar-center hidden lg:flex">
          <ul className="menu menu-horizontal gap-1">
            <NavLinks signedIn={Boolean(user)} repositoryUrl={config.data?.repository_url} />
          </ul>
        </div>
        <div className="navbar-end gap-2">
          <ThemeSwitch />
          {user && (
            <>
              <CoinBalance coins={user.coins} />
              {/* Holds the avatar button's place so the header does not shift when it arrives. */}
              <Suspense fallback={<span className="size-10" />}>
                <AccountMenu user={user} />
              </Suspense>
            </>
          )}
        </div>
      </nav>
      {menuOpen && (
        <ul id="mobile-menu" className="menu w-full border-t border-base-300 bg-base-100 p-2 lg:hidden">
          <NavLinks
            signedIn={Boolean(user)}
            repositoryUrl={config.data?.repository_url}
            onNavigate={() => setMenuOpen(false)}
          />
        </ul>
      )}
    </header>
  );
}

const FOOTER_LINKS = [
  { label: "All tasks", to: paths.allTasks },
  { label: "About us", to: paths.about },
  { label: "Register as a worker", to: `${paths.register}?role=worker` },
  { label: "Register as a buyer", to: `${paths.register}?role=buyer` },
];

/** No invented address, phone or opening hours (rule R19): what the site is, its pages, its links. */
function Footer() {
  return (
    <footer className="bg-neutral text-neutral-content">
      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-8 sm:grid-cols-3 sm:gap-8 sm:py-10">
        <div>
          <h2 className="mb-2 font-bold">{BRAND}</h2>
          <p className="text-sm text-neutral-content/80">
            Small online tasks, paid in coins: workers earn, buyers get work done.
          </p>
        </div>
        <nav aria-label="Footer">
          <h2 className="mb-2 font-bold">Explore</h2>
          <ul className="grid grid-cols-2 gap-x-4 text-sm sm:grid-cols-1">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link className="link-hover inline-flex min-h-11 items-center sm:min-h-8" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="mb-2 font-bold">Follow us</h2>
          <div className="flex gap-3">
            <a
              className="btn btn-circle btn-ghost text-neutral-content hover:bg-neutral-content/10"
              href="https://www.facebook.com/"
              target="_blank"
              rel="noopener noreferrer"
              aria-label="TaskMint on Facebook"
            >
              <FacebookIcon />
            </a>
            <a
              className="btn btn-circle btn-ghost text-neutral-content hover:bg-neutral-content/10"
              href="https://www.linkedin.com/"
              target="_blank"
              rel="noopener noreferrer"
              aria-label="TaskMint on LinkedIn"
            >
              <LinkedinIcon />
            </a>
            <a
              className="btn btn-circle btn-ghost text-neutral-content hover:bg-neutral-content/10"
              href="https://github.com/"
              target="_blank"
              rel="noopener noreferrer"
              aria-label="TaskMint on GitHub"
            >
              <GithubIcon />
            </a>
          </div>
        </div>
      </div>
      <p className="border-t border-neutral-content/20 py-4 text-center text-sm">
        Copyright © {new Date().getFullYear()} {BRAND}. All rights reserved.
      </p>
    </footer>
  );
}

export function PublicLayout() {
  const location = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar key={location.pathname} />
      {/* At least a screen tall, so the footer starts below the fold and never jumps as a page loads. */}
      <main className="min-h-screen flex-1 pt-16">
        <OfflineBanner />
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
