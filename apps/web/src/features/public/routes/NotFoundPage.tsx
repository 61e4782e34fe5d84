import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";

export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Page not found</h1>
      <p className="mt-2 text-base-content/70">There is nothing at this address.</p>
      <Link to={paths.home} className="btn btn-primary mt-6">
        Back to home
      </Link>
    </section>
  );
}
