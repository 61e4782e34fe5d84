import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";

/** Shown instead of a page that failed to load or render (React Router's errorElement). */
export function RouteError() {
  return (
    <section role="alert" className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-2 text-base-content/70">This page could not be shown. Try again, or go back home.</p>
      <div className="mt-6 flex justify-center gap-3">
        {/* A reload also fetches a page's code again, which is what fails after a new release. */}
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Try again
        </button>
        <Link to={paths.home} className="btn">
          Home
        </Link>
      </div>
    </section>
  );
}
