import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { SLIDES } from "../content.ts";
import { useDeferredCarousel } from "./useDeferredCarousel.tsx";

const OPTIONS = { loop: true };
const AUTOPLAY = { delay: 5000, stopOnMouseEnter: true, stopOnInteraction: false };

/** Three slides, every 5 s, looping, paused while hovered, swipeable, with arrows. */
export function BannerCarousel() {
  const { viewportRef, api: embla, engine } = useDeferredCarousel(OPTIONS, AUTOPLAY);
  return (
    <section
      className="relative"
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
                className="relative min-w-0 flex-[0_0_100%]"
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${SLIDES.length}`}
              >
                <img
                  src={slide.image}
                  alt=""
                  width={1600}
                  height={640}
                  className="h-[26rem] w-full object-cover sm:h-[32rem]"
                  fetchPriority={index === 0 ? "high" : "low"}
                  loading={index === 0 ? "eager" : "lazy"}
                />
                <div className="absolute inset-0 flex items-center bg-gradient-to-r from-black/70 via-black/40 to-transparent">
                  <div className="mx-auto w-full max-w-7xl px-16 text-white">
                    {/* The first slide's title is the page's one h1; the others are its sections. */}
                    <Heading className="max-w-xl text-3xl font-bold sm:text-5xl">{slide.title}</Heading>
                    <p className="mt-4 max-w-lg text-lg text-white/90">{slide.description}</p>
                    <Link to={slide.to} className="btn btn-accent mt-6" tabIndex={0}>
                      {slide.buttonText}
                    </Link>
                  </div>
                </div>
              </div>
            );
          })}
        </div>
      </div>
      <button
        type="button"
        className="btn btn-circle btn-sm absolute left-3 top-1/2 -translate-y-1/2 sm:btn-md"
        aria-label="Previous slide"
        onClick={() => embla?.scrollPrev()}
      >
        <ChevronLeft aria-hidden="true" />
      </button>
      <button
        type="button"
        className="btn btn-circle btn-sm absolute right-3 top-1/2 -translate-y-1/2 sm:btn-md"
        aria-label="Next slide"
        onClick={() => embla?.scrollNext()}
      >
        <ChevronRight aria-hidden="true" />
      </button>
      {engine}
    </section>
  );
}
