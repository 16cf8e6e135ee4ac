import { useEffect, useState } from "react";

/**
 * The client's clock, read again every `intervalMs` while `ticking`: for what counts up on
 * screen (a run's "running for") when nothing else would render it again.
 */
export function useNow(intervalMs: number, ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0); // at once: the clock may be old (a run queued a while)
    const timer = setInterval(tick, intervalMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [intervalMs, ticking]);
  return now;
}
