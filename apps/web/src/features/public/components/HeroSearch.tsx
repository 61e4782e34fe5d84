import { useId, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { useMe } from "../../../lib/auth.ts";

/**
 * Home's two ways in: a task search that opens All Tasks with the words as its filter (a plain
 * GET form, so it works in the prerendered page before the app has loaded), and a buyer's
 * "Post a task" (to the form when signed in as a buyer, else to sign-up as one).
 */
export function HeroSearch() {
  const navigate = useNavigate();
  const id = useId();
  const me = useMe();
  const postTask = me.data?.role === "buyer" ? paths.dashboard.addTasks : `${paths.register}?role=buyer`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const given = new FormData(event.currentTarget).get("q");
    const words = typeof given === "string" ? given.trim() : "";
    void navigate(
      words ? `${paths.allTasks}?${new URLSearchParams({ q: words }).toString()}` : paths.allTasks,
    );
  };

  return (
    <div className="mt-6 space-y-3">
      <form role="search" action={paths.allTasks} method="get" onSubmit={onSubmit} className="max-w-xl">
        <label htmlFor={id} className="mb-1 block text-sm font-semibold">
          Find a task to do
        </label>
        <div className="join w-full">
          <input
            id={id}
            name="q"
            type="search"
            maxLength={100}
            placeholder="Try “survey”, “review” or “logo”"
            className="input join-item h-12 w-full min-w-0 bg-base-100"
          />
          <button type="submit" className="btn btn-primary join-item h-12">
            Search
          </button>
        </div>
      </form>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base-content/80">
        <span>Need work done?</span>
        <Link to={postTask} className="link link-primary inline-flex min-h-11 items-center font-semibold">
          Post a task
        </Link>
      </p>
    </div>
  );
}
