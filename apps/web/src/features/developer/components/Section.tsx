import type { ReactNode } from "react";

/** One part of the Developer page: a card with its heading, a sentence on what it is for, and its content. */
export function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="card bg-base-100 shadow-sm" id={id}>
      <div className="card-body gap-4 max-sm:p-4">
        <h2 id={`${id}-title`} className="card-title">
          {title}
        </h2>
        <p className="text-sm text-base-content/70">{intro}</p>
        {children}
      </div>
    </section>
  );
}
