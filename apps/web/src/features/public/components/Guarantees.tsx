import { BadgeCheck } from "lucide-react";
import { GUARANTEES } from "../content.ts";

/** What the marketplace enforces for everyone: true statements in place of testimonials. */
export function Guarantees() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-16" aria-labelledby="guarantees-title">
      <h2 id="guarantees-title" className="text-center text-3xl font-bold sm:text-4xl">
        What we guarantee
      </h2>
      <p className="mx-auto mt-2 max-w-2xl text-center text-base-content/70">
        Rules the platform enforces for every task, submission and payment, not promises.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="guarantees">
        {GUARANTEES.map((item) => (
          <li key={item.title} className="card bg-base-100 shadow-sm ring-1 ring-base-300">
            <div className="card-body">
              <h3 className="card-title text-lg">
                <BadgeCheck className="size-6 shrink-0 text-primary" aria-hidden="true" />
                {item.title}
              </h3>
              <p className="text-base-content/80">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
