import type { ReactNode } from "react";

/** A page that is one narrow card: sign-in, register, password reset. */
export function CardPage({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="card bg-base-100 shadow-md ring-1 ring-base-300">{children}</div>
    </section>
  );
}
