import { Quote } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { TESTIMONIALS } from "../content.ts";
import { useDeferredCarousel } from "./useDeferredCarousel.tsx";

const OPTIONS = { loop: true, align: "start" } as const;
const AUTOPLAY = { delay: 3000, stopOnInteraction: false };

/** Five quotes, every 3 s, 30 px apart, 1/2/3 at a time by width, with clickable dots; keeps playing after use. */
export function Testimonials() {
  const { viewportRef, api: embla, engine } = useDeferredCarousel(OPTIONS, AUTOPLAY);
  const [selected, setSelected] = useState(0);
  const [snaps, setSnaps] = useState<number[]>([]);

  const sync = useCallback(() => {
    if (!embla) return;
    setSelected(embla.selectedScrollSnap());
    setSnaps(embla.scrollSnapList());
  }, [embla]);

  useEffect(() => {
    if (!embla) return;
    embla.on("select", sync).on("reInit", sync);
    queueMicrotask(sync);
    return () => {
      embla.off("select", sync).off("reInit", sync);
    };
  }, [embla, sync]);

  return (
    <section
      className="mx-auto max-w-7xl px-4 py-16"
      aria-roledescription="carousel"
      aria-label="What Our Users Say"
    >
      <h2 className="text-center text-3xl font-bold sm:text-4xl">What Our Users Say</h2>
      <p className="mt-2 text-center text-base-content/70">
        Thousands of users choose TaskMint for their micro-task needs.
      </p>
      <div className="mt-10 overflow-hidden" ref={viewportRef}>
        <div className="-ml-[30px] flex" data-testid="testimonials">
          {TESTIMONIALS.map((item) => (
            <figure
              key={item.id}
              className="min-w-0 flex-[0_0_100%] pl-[30px] md:flex-[0_0_50%] lg:flex-[0_0_33.3333%]"
              role="group"
              aria-roledescription="slide"
            >
              <div className="card h-full bg-base-100 shadow-sm ring-1 ring-base-300">
                <div className="card-body">
                  <Quote className="size-8 text-primary/40" aria-hidden="true" />
                  <blockquote className="flex-1">{item.quote}</blockquote>
                  <figcaption className="mt-4 flex items-center gap-3">
                    <img
                      src={item.image}
                      alt={item.name}
                      width={48}
                      height={48}
                      loading="lazy"
                      className="size-12 rounded-full"
                    />
                    <span>
                      <span className="block font-semibold">{item.name}</span>
                      <span className="text-sm text-base-content/70">{item.role}</span>
                    </span>
                  </figcaption>
                </div>
              </div>
            </figure>
          ))}
        </div>
      </div>
      <div className="mt-6 flex justify-center gap-2" role="group" aria-label="Choose a testimonial">
        {snaps.map((_, index) => (
          <button
            key={index}
            type="button"
            className={`size-3 rounded-full ${index === selected ? "bg-primary" : "bg-base-300"}`}
            aria-label={`Show testimonial ${index + 1}`}
            aria-current={index === selected}
            onClick={() => embla?.scrollTo(index)}
          />
        ))}
      </div>
      {engine}
    </section>
  );
}
