import { Hourglass } from "lucide-react";

/** A page whose feature is not built yet. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <Hourglass className="mx-auto mb-4 size-10 text-primary" aria-hidden="true" />
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-2 text-base-content/70">This page is coming soon.</p>
    </section>
  );
}
