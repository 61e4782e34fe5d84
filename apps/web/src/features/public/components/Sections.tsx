import {
  Banknote,
  Clock,
  Globe,
  House,
  MessageSquareText,
  ShieldCheck,
  Sparkles,
  Wallet,
} from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { FAQ, FEATURES, HOW_IT_WORKS, WHY_US } from "../content.ts";

const FEATURE_ICONS = [Banknote, Globe, House, Clock];
const WHY_ICONS = [Sparkles, Clock, ShieldCheck, MessageSquareText, Wallet];

export function Hero() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-10 sm:py-16">
      <h2 className="text-center text-2xl font-bold sm:text-4xl">Turn your spare time into extra income</h2>
      {/* Two across on phones: four short cards, not four screens of them. */}
      <div className="mt-6 grid grid-cols-2 gap-3 sm:mt-10 sm:gap-6 lg:grid-cols-4">
        {FEATURES.map((feature, index) => {
          const Icon = FEATURE_ICONS[index] ?? ShieldCheck;
          return (
            <article key={feature.title} className="card bg-base-100 shadow-sm ring-1 ring-base-300">
              <div className="card-body items-center gap-1 p-3 text-center sm:gap-2 sm:p-6">
                <Icon className="size-7 text-primary sm:size-10" aria-hidden="true" />
                <h3 className="card-title text-base sm:text-xl">{feature.title}</h3>
                <p className="text-sm text-base-content/70 sm:text-base">{feature.text}</p>
              </div>
            </article>
          );
        })}
      </div>
    </section>
  );
}

export function StartEarning() {
  return (
    <section className="bg-base-200">
      <div className="mx-auto max-w-7xl px-4 py-10 sm:py-16">
        <h2 className="text-center text-2xl font-bold sm:text-4xl">Start earning today</h2>
        <div className="mt-6 grid gap-4 sm:mt-10 sm:gap-6 lg:grid-cols-2">
          <div className="card bg-base-100 shadow-sm">
            <div className="card-body p-4 sm:p-8">
              <h3 className="card-title text-xl sm:text-2xl">How it works</h3>
              <ol className="mt-1 space-y-2 text-sm sm:mt-2 sm:space-y-3 sm:text-base">
                {HOW_IT_WORKS.map((step, index) => (
                  <li key={step} className="flex gap-3">
                    <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-content sm:size-8 sm:text-base">
                      {index + 1}
                    </span>
                    <span className="pt-1">{step}</span>
                  </li>
                ))}
              </ol>
            </div>
          </div>
          <div className="card bg-base-100 shadow-sm">
            <div className="card-body p-4 sm:p-8">
              <h3 className="card-title text-xl sm:text-2xl">Why choose us</h3>
              <ul className="mt-1 space-y-2 text-sm sm:mt-2 sm:space-y-3 sm:text-base">
                {WHY_US.map((point, index) => {
                  const Icon = WHY_ICONS[index] ?? Sparkles;
                  return (
                    <li key={point.title} className="flex gap-3">
                      <Icon className="mt-0.5 size-5 shrink-0 text-primary sm:size-6" aria-hidden="true" />
                      <span>
                        <strong>{point.title}:</strong> {point.text}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

/** Six questions; one open at a time, the first open at first. */
export function Faq() {
  const [open, setOpen] = useState(0);
  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:py-16">
      <h2 className="text-center text-2xl font-bold sm:text-4xl">Frequently asked questions</h2>
      <div className="mt-6 space-y-2 sm:mt-8 sm:space-y-3">
        {FAQ.map((item, index) => {
          const expanded = open === index;
          return (
            <div key={item.question} className="rounded-box bg-base-100 ring-1 ring-base-300">
              <h3>
                <button
                  type="button"
                  id={`faq-q-${index}`}
                  className="flex min-h-11 w-full items-center justify-between gap-3 px-4 py-3 text-left font-semibold"
                  aria-expanded={expanded}
                  aria-controls={`faq-a-${index}`}
                  onClick={() => setOpen(expanded ? -1 : index)}
                >
                  {item.question}
                  <span aria-hidden="true" className="text-xl">
                    {expanded ? "−" : "+"}
                  </span>
                </button>
              </h3>
              <div
                id={`faq-a-${index}`}
                role="region"
                aria-labelledby={`faq-q-${index}`}
                hidden={!expanded}
                className="px-4 pb-4 text-base-content/80"
              >
                {item.answer}
              </div>
            </div>
          );
        })}
      </div>
      <div className="mt-6 text-center sm:mt-8">
        <Link to={paths.about} className="btn btn-primary min-h-11">
          Know more about us
        </Link>
      </div>
    </section>
  );
}
