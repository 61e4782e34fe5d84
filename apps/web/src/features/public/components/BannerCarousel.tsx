// Icons the page already loads (Sections.tsx): each new one weighs on Home's first script.
import { Banknote, ChevronLeft, ChevronRight, Globe, Wallet } from "lucide-react";
import { Link } from "react-router";
import { SLIDES } from "../content.ts";
import { HeroSearch } from "./HeroSearch.tsx";
import { useDeferredCarousel } from "./useDeferredCarousel.tsx";

const OPTIONS = { loop: true };
const AUTOPLAY = { delay: 5000, stopOnMouseEnter: true, stopOnInteraction: false };

/** What the right side of the hero shows on wide screens: the product's facts, no invented figures. */
const FACTS = [
  { icon: Globe, title: "Small online tasks", text: "Each says what to do and what proof to send." },
  {
    icon: Banknote,
    title: "Paid in coins",
    text: "Set aside when the task is posted: approved work is paid.",
  },
  {
    icon: Wallet,
    title: "Withdraw from 200 coins",
    text: "Bkash, Rocket, Nagad or PayPal; 20 coins make $1.",
  },
];

/**
 * Home's hero: three messages that turn every 5 s (looping, held while hovered, swipeable,
 * with arrows), the task search and the buyer's way in under them, the product's facts beside.
 */
export function BannerCarousel() {
  const { viewportRef, api: embla, engine } = useDeferredCarousel(OPTIONS, AUTOPLAY);
  return (
    <section className="bg-gradient-to-b from-primary/15 via-base-200 to-base-100">
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-8 sm:py-14 lg:grid-cols-[minmax(0,1.25fr)_minmax(0,1fr)]">
        <div className="min-w-0">
          <div
            className="relative max-w-xl"
            aria-roledescription="carousel"
            aria-label="Highlights"
            data-testid="banner"
          >
            <div className="overflow-hidden" ref={viewportRef}>
              <div className="flex">
                {SLIDES.map((slide, index) => {
                  const Heading = index === 0 ? "h1" : "h2";
                  return (
                    <div
                      key={slide.id}
                      className="flex min-w-0 flex-[0_0_100%] flex-col pr-1"
                      role="group"
                      aria-roledescription="slide"
                      aria-label={`${index + 1} of ${SLIDES.length}`}
                    >
                      {/* The first slide's title is the page's one h1; the others are its sections. */}
                      <Heading className="max-w-xl text-3xl font-bold tracking-tight text-base-content sm:text-5xl">
                        {slide.title}
                      </Heading>
                      <p className="mt-3 max-w-xl text-base text-base-content/80 sm:text-lg">
                        {slide.description}
                      </p>
                      {/* On the last row of the tallest slide, beside the arrows, whichever slide shows. */}
                      <div className="mt-auto pt-4">
                        <Link to={slide.to} className="btn btn-accent min-h-11" tabIndex={0}>
                          {slide.buttonText}
                        </Link>
                      </div>
                    </div>
                  );
                })}
              </div>
            </div>
            <div className="absolute bottom-0 right-0 flex gap-2">
              {(
                [
                  { label: "Previous slide", Icon: ChevronLeft, go: () => embla?.scrollPrev() },
                  { label: "Next slide", Icon: ChevronRight, go: () => embla?.scrollNext() },
                ] as const
              ).map(({ label, Icon, go }) => (
                <button
                  key={label}
                  type="button"
                  className="btn btn-circle btn-ghost size-11 border border-base-300"
                  aria-label={label}
                  onClick={go}
                >
                  <Icon aria-hidden="true" />
                </button>
              ))}
            </div>
            {engine}
          </div>
          <HeroSearch />
        </div>
        <ul className="hidden gap-4 lg:grid" aria-label="TaskMint in short">
          {FACTS.map(({ icon: Icon, title, text }, index) => (
            <li
              key={title}
              className={`flex items-start gap-4 rounded-box bg-base-100 p-5 shadow-sm ring-1 ring-base-300 ${
                index === 1 ? "lg:ml-10" : ""
              }`}
            >
              <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-base-content/70">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
