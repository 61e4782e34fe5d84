import type { AutoplayOptionsType } from "embla-carousel-autoplay";
import type useEmblaCarousel from "embla-carousel-react";
import type { UseEmblaCarouselType } from "embla-carousel-react";
import { lazy, Suspense, useState } from "react";

export type CarouselOptions = Parameters<typeof useEmblaCarousel>[0];
export type CarouselApi = NonNullable<UseEmblaCarouselType[1]>;

// The slides render at once as plain markup; Embla only moves them, so it loads after the first paint.
const CarouselEngine = lazy(() =>
  import("./CarouselEngine.tsx").then((module) => ({ default: module.CarouselEngine })),
);

/**
 * An Embla carousel with autoplay whose code stays out of the first bundle. Put `viewportRef` on the
 * viewport and render `engine` anywhere inside the carousel; `api` is undefined until Embla has started.
 */
export function useDeferredCarousel(options: CarouselOptions, autoplay: AutoplayOptionsType) {
  const [viewport, setViewport] = useState<HTMLDivElement | null>(null);
  const [api, setApi] = useState<CarouselApi>();
  const engine = viewport && (
    <Suspense fallback={null}>
      <CarouselEngine viewport={viewport} options={options} autoplay={autoplay} onReady={setApi} />
    </Suspense>
  );
  return { viewportRef: setViewport, api, engine };
}
