import Autoplay, { type AutoplayOptionsType } from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useEffect } from "react";
import type { CarouselApi, CarouselOptions } from "./useDeferredCarousel.tsx";

/** Runs Embla with autoplay on a viewport that is already on screen; renders nothing. */
export function CarouselEngine({
  viewport,
  options,
  autoplay,
  onReady,
}: {
  viewport: HTMLElement;
  options: CarouselOptions;
  autoplay: AutoplayOptionsType;
  onReady: (api: CarouselApi) => void;
}) {
  const [attach, api] = useEmblaCarousel(options, [Autoplay(autoplay)]);
  useEffect(() => attach(viewport), [attach, viewport]);
  useEffect(() => {
    if (api) onReady(api);
  }, [api, onReady]);
  return null;
}
