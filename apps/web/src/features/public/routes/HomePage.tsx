import { Link } from "react-router";
import { BRAND } from "@taskmint/shared/constants";

export function HomePage() {
  return (
    <section className="hero min-h-[60vh] bg-base-200">
      <div className="hero-content text-center">
        <div className="max-w-2xl">
          <h1 className="text-4xl font-bold sm:text-5xl">Turn Your Time Into Money</h1>
          <p className="py-6 text-lg text-base-content/80">
            {BRAND} connects people who need small online tasks done with people who do them for coins, paid out as money.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link to="/register" className="btn btn-primary">
              Start Earning
            </Link>
            <Link to="/allTask" className="btn btn-outline">
              View Tasks
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
