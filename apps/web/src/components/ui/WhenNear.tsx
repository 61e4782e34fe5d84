import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders `children` only once this place comes within `margin` of the screen, for parts far
 * below the fold whose code, data and checks a visitor who never scrolls there should not pay
 * for (on a phone, each schema the app builds is main-thread time before the page answers taps).
 */
export function WhenNear({ children, margin = "600px" }: { children: ReactNode; margin?: string }) {
  const anchor = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = anchor.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);
  return near ? children : <div ref={anchor} />;
}
