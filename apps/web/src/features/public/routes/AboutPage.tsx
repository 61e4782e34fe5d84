import { Eye, HeartHandshake, Target, Trophy, UsersRound } from "lucide-react";
import { Link } from "react-router";
import { BRAND } from "@taskmint/shared/constants";
import { COINS_PER_DOLLAR, MIN_WITHDRAWAL_COINS, PAYMENT_SYSTEMS } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";

// The marketplace's rules in numbers, from the constants the server enforces (no invented figures).
const FACTS = [
  { value: `${COINS_PER_DOLLAR} coins`, label: "make $1" },
  { value: `${MIN_WITHDRAWAL_COINS} coins`, label: "minimum withdrawal" },
  { value: String(PAYMENT_SYSTEMS.length), label: "payout methods" },
  { value: "3 days", label: "until unreviewed work is approved" },
];

const AIMS = [
  {
    title: "Our mission",
    text: "Give anyone with a connection a fair way to earn from their spare time, and give businesses fast, honest help with the small tasks that pile up.",
    Icon: Target,
  },
  {
    title: "Our vision",
    text: "A world where small work is paid on time, reviewed fairly and open to everyone, wherever they live.",
    Icon: Eye,
  },
];

const VALUES = [
  {
    title: "Trust and transparency",
    text: "A task's coins sit in escrow until work is approved, and every coin movement is recorded in a ledger.",
    Icon: HeartHandshake,
  },
  {
    title: "Quality",
    text: "Every task says what to submit, and every rejection comes with the buyer's reason.",
    Icon: Trophy,
  },
  {
    title: "Open to everyone",
    text: "Anyone with a browser can sign up free, as a worker or a buyer.",
    Icon: UsersRound,
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
        {FACTS.map((stat) => (
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
        <h2 className="text-center text-3xl font-bold">Our core values</h2>
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
          Get started
        </Link>
        <Link to={paths.home} className="link">
          Back to home
        </Link>
      </div>
    </div>
  );
}
