import { BannerCarousel } from "../components/BannerCarousel.tsx";
import { Faq, Hero, StartEarning } from "../components/Sections.tsx";
import { Testimonials } from "../components/Testimonials.tsx";
import { TopPerformers } from "../components/TopPerformers.tsx";

export function HomePage() {
  return (
    <>
      <BannerCarousel />
      <Hero />
      <StartEarning />
      <Faq />
      <TopPerformers />
      <Testimonials />
    </>
  );
}
