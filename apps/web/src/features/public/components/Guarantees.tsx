import { BadgeCheck } from "lucide-react";
import { GUARANTEES } from "../content.ts";

/** What the marketplace enforces for everyone: true statements in place of testimonials. */
export function Guarantees() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-10 sm:py-16" aria-labelledby="guarantees-title">
      <h2 id="guarantees-title" className="text-center text-2xl font-bold sm:text-4xl">
        What we guarantee
      </h2>
      <p className="mx-auto mt-2 max-w-2xl text-center text-base-content/70">
        Rules the platform enforces for every task, submission and payment, not promises.
      </p>
      {/* A plain list on phones (no card per rule), cards from tablet width. */}
      <ul
        className="mt-6 grid gap-4 sm:mt-10 sm:grid-cols-2 sm:gap-6 lg:grid-cols-3"
        data-testid="guarantees"
      >
        {GUARANTEES.map((item) => (
          <li
            key={item.title}
            className="flex gap-3 sm:rounded-box sm:bg-base-100 sm:p-6 sm:shadow-sm sm:ring-1 sm:ring-base-300"
          >
            <BadgeCheck className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
            <div>
              <h3 className="font-semibold sm:text-lg">{item.title}</h3>
              <p className="text-sm text-base-content/80 sm:text-base">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
