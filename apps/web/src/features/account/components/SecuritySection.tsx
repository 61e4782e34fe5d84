import { SessionsCard } from "./SessionsCard.tsx";
import { TwoFactorCard } from "./TwoFactorCard.tsx";

/** Profile's Security: two-factor sign-in and the signed-in sessions. */
export function SecuritySection({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  return (
    <section aria-labelledby="security-title" className="mt-6">
      <h2 id="security-title" className="text-xl font-bold">
        Security
      </h2>
      <div className="mt-3 grid gap-6 md:grid-cols-2">
        <TwoFactorCard enabled={twoFactorEnabled} />
        <SessionsCard />
      </div>
    </section>
  );
}
