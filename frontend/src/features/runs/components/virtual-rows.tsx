import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { computeWindow, scrollTopFor } from "@/features/runs/lib/log-window";
import classes from "@/features/runs/components/log-viewer.module.css";

export interface ScrollRequest {
  row: number;
  /** a new value scrolls again, even to the same row */
  seq: number;
}

interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  /** the rows rendered changed (to load what they show) */
  onRange?: (first: number, last: number) => void;
  /** keep the last row in view as rows are added */
  follow?: boolean;
  /** the reader scrolled away from the end (or back to it) */
  onFollowChange?: (follow: boolean) => void;
  scrollTo?: ScrollRequest | null;
  label: string;
  /** the viewport's height when layout can't tell (tests) */
  initialHeight?: number;
}

/**
 * Fixed-height rows, only the visible ones in the DOM. The scroll box takes the keyboard
 * (arrows, Page Up/Down, Home/End) like any scrollable region.
 */
export function VirtualRows(props: VirtualRowsProps) {
  const { count, rowHeight, renderRow, onRange, follow = false, onFollowChange, scrollTo } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(props.initialHeight ?? 400);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      if (element.clientHeight > 0) setViewport(element.clientHeight);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const window = computeWindow({ count, rowHeight, viewportHeight: viewport, scrollTop });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!follow || !element || count === 0) return;
    // computed rather than read from scrollHeight: no layout flush on every batch of lines
    element.scrollTop = scrollTopFor(
      count - 1,
      { count, rowHeight, viewportHeight: viewport },
      "end",
    );
    setScrollTop(element.scrollTop);
  }, [follow, count, viewport, rowHeight]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!scrollTo || !element) return;
    const top = scrollTopFor(scrollTo.row, { count, rowHeight, viewportHeight: viewport });
    element.scrollTop = top;
    setScrollTop(element.scrollTop);
    // and the box itself into the page's view (jsdom has no scrollIntoView)
    element.scrollIntoView?.({ block: "nearest" });
    // only a new request scrolls; later count changes must not pull the reader back
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollTo]);

  const { first, last } = window;
  useEffect(() => {
    if (last >= first) onRange?.(first, last);
  }, [first, last, onRange]);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    setScrollTop(element.scrollTop);
    const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - rowHeight;
    if (follow && !atEnd) onFollowChange?.(false);
  }, [follow, onFollowChange, rowHeight]);

  const rows: ReactNode[] = [];
  for (let index = first; index <= last; index++) rows.push(renderRow(index));

  return (
    <div
      ref={ref}
      className={classes.viewport}
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={props.label}
    >
      <div className={classes.spacer} style={{ height: window.height }}>
        <div className={classes.window} style={{ transform: `translateY(${window.top}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
