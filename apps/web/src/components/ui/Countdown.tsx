import { useEffect, useState } from "react";

/** "12:05", "1:02:05": the time left, in the units a person counts down in. */
export function timeLeftText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Time left until `until`, ticking each second; `onEnd` runs once when it reaches zero. */
export function Countdown({ until, onEnd }: { until: string; onEnd?: () => void }) {
  const end = Date.parse(until);
  const [now, setNow] = useState(() => Date.now());
  const left = end - now;
  useEffect(() => {
    if (left <= 0) {
      onEnd?.();
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, left));
    return () => clearTimeout(timer);
  }, [left, onEnd]);
  return (
    <time role="timer" dateTime={until} className="font-mono tabular-nums">
      {timeLeftText(left)}
    </time>
  );
}
