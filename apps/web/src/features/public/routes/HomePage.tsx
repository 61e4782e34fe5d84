import { lazy, Suspense } from "react";
import { BannerCarousel } from "../components/BannerCarousel.tsx";
import { WhenNear } from "../../../components/ui/WhenNear.tsx";
import { Guarantees } from "../components/Guarantees.tsx";
import { Faq, Hero, StartEarning } from "../components/Sections.tsx";

// Far below the fold and drawn only once its list arrives (nothing in the prerendered page): its
// code, the avatar's and its answer's checks with it, load as the visitor scrolls near it.
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
      <WhenNear>
        <Suspense fallback={null}>
          <TopPerformers />
        </Suspense>
      </WhenNear>
      <Guarantees />
    </>
  );
}
