import { Eye, Globe2, HeartHandshake, Target, Trophy } from "lucide-react";
import { Link } from "react-router";
import { BRAND } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";

const STATS = [
  { value: "50K+", label: "Active Users" },
  { value: "1M+", label: "Tasks Completed" },
  { value: "150+", label: "Countries" },
  { value: "24/7", label: "Support" },
];

const AIMS = [
  {
    title: "Our Mission",
    text: "Give anyone with a connection a fair way to earn from their spare time, and give businesses fast, honest help with the small tasks that pile up.",
    Icon: Target,
  },
  {
    title: "Our Vision",
    text: "A world where small work is paid on time, reviewed fairly and open to everyone, wherever they live.",
    Icon: Eye,
  },
];

const VALUES = [
  {
    title: "Trust & Transparency",
    text: "Coins sit in escrow until work is approved, and every coin is accounted for.",
    Icon: HeartHandshake,
  },
  {
    title: "Quality & Excellence",
    text: "Clear instructions, fair reviews and reasons for every rejection.",
    Icon: Trophy,
  },
  {
    title: "Global Community",
    text: "Workers and buyers from around the world, helping each other get things done.",
    Icon: Globe2,
  },
];

export function AboutPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-center text-4xl font-bold">About {BRAND}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-center text-lg text-base-content/70">
        A marketplace for micro-tasks: buyers get small online jobs done, workers earn for doing them.
      </p>
      <div className="mt-10 grid grid-cols-2 gap-4 lg:grid-cols-4">
        {STATS.map((stat) => (
          <div
            key={stat.label}
            className="rounded-box bg-base-100 p-6 text-center shadow-sm ring-1 ring-base-300"
          >
            <p className="text-3xl font-bold text-primary">{stat.value}</p>
            <p className="mt-1 text-base-content/70">{stat.label}</p>
          </div>
        ))}
      </div>
      <div className="mt-12 grid gap-6 md:grid-cols-2">
        {AIMS.map(({ title, text, Icon }) => (
          <section key={title} className="card bg-base-100 shadow-sm">
            <div className="card-body">
              <h2 className="card-title text-2xl">
                <Icon className="text-primary" aria-hidden="true" /> {title}
              </h2>
              <p>{text}</p>
            </div>
          </section>
        ))}
      </div>
      <section className="mt-12">
        <h2 className="text-center text-3xl font-bold">Our Core Values</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {VALUES.map(({ title, text, Icon }) => (
            <article key={title} className="card bg-base-100 shadow-sm ring-1 ring-base-300">
              <div className="card-body items-center text-center">
                <Icon className="size-10 text-primary" aria-hidden="true" />
                <h3 className="card-title">{title}</h3>
                <p className="text-base-content/70">{text}</p>
              </div>
            </article>
          ))}
        </div>
      </section>
      <div className="mt-12 flex flex-wrap items-center justify-center gap-4">
        <Link to={paths.dashboard.root} className="btn btn-primary">
          Get Started
        </Link>
        <Link to={paths.home} className="link">
          Back to Home
        </Link>
      </div>
    </div>
  );
}
