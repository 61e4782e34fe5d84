import { Link } from "react-router";
import { BRAND, ROLE_HOME } from "@taskmint/shared";
import { useMe } from "../../../lib/auth.ts";

const NEXT_STEP = {
  worker: "Find a task, submit your proof and earn coins you can withdraw.",
  buyer: "Post a task, review the work you get and pay only for what you approve.",
  admin: "Check the platform's health, withdrawals and users.",
} as const;

export function WelcomePage() {
  const { data: user } = useMe();
  if (!user) return null;
  return (
    <section className="hero rounded-box bg-base-100 py-12 shadow-sm">
      <div className="hero-content text-center">
        <div className="max-w-lg">
          <h1 className="text-3xl font-bold">Welcome, {user.name}!</h1>
          <p className="mt-2 text-base-content/70">
            You are signed in to {BRAND} as a <span className="font-semibold capitalize">{user.role}</span>.{" "}
            {NEXT_STEP[user.role]}
          </p>
          <Link to={ROLE_HOME[user.role]} className="btn btn-primary mt-6">
            Go to your home
          </Link>
        </div>
      </div>
    </section>
  );
}
