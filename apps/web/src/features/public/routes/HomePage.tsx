import { BannerCarousel } from "../components/BannerCarousel.tsx";
import { Guarantees } from "../components/Guarantees.tsx";
import { Faq, Hero, StartEarning } from "../components/Sections.tsx";
import { TopPerformers } from "../components/TopPerformers.tsx";

export function HomePage() {
  return (
    <>
      <BannerCarousel />
      <Hero />
      <StartEarning />
      <Faq />
      <TopPerformers />
      <Guarantees />
    </>
  );
}
