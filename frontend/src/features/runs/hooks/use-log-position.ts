import { useCallback, useState } from "react";
import type { ScrollRequest } from "@/features/runs/components/virtual-rows";

/**
 * Where the run page's log is: following the end, or showing a line (a failure, a picked
 * match) marked. Kept by the page, so the recap above can show a line and a tab switch keeps
 * the place.
 */
export function useLogPosition(initialFollow: boolean) {
  const [follow, setFollow] = useState(initialFollow);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<ScrollRequest | null>(null);
  const showLine = useCallback((line: number) => {
    setFollow(false);
    setHighlight(line);
    setScrollTo((previous) => ({ row: line, seq: (previous?.seq ?? 0) + 1 }));
  }, []);
  return { follow, setFollow, highlight, scrollTo, showLine };
}

export type LogPosition = ReturnType<typeof useLogPosition>;
