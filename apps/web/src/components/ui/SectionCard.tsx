import type { ReactNode } from "react";

/**
 * A card that is a section of its page: named by its heading for screen readers, padded for
 * phones and desktops alike. `heading` is the h2's content; `aside` sits beside it (a count, a
 * close button).
 */
export function SectionCard({
  id,
  heading,
  aside,
  testId,
  className = "",
  children,
}: {
  id: string;
  heading: ReactNode;
  aside?: ReactNode;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  const title = (
    <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-bold">
      {heading}
    </h2>
  );
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`card bg-base-100 shadow-sm ring-1 ring-base-300 ${className}`}
      data-testid={testId}
    >
      <div className="card-body gap-4 p-4 sm:p-6">
        {aside ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {title}
            {aside}
          </div>
        ) : (
          title
        )}
        {children}
      </div>
    </section>
  );
}
