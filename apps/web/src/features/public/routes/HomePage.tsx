import { lazy, Suspense } from "react";
import { BannerCarousel } from "../components/BannerCarousel.tsx";
import { Guarantees } from "../components/Guarantees.tsx";
import { Faq, Hero, StartEarning } from "../components/Sections.tsx";

// Far below the fold and drawn only once its list arrives (nothing in the prerendered page):
// its code, the avatar's with it, stays out of Home's first script.
const TopPerformers = lazy(() =>
  import("../components/TopPerformers.tsx").then((module) => ({ default: module.TopPerformers })),
);

export function HomePage() {
  return (
    <>
      <BannerCarousel />
      <Hero />
      <StartEarning />
      <Faq />
      <Suspense fallback={null}>
        <TopPerformers />
      </Suspense>
      <Guarantees />
    </>
  );
}
