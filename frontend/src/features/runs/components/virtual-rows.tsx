import {
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { fillHeight } from "@/features/runs/lib/fill-height";
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
  /** size the box to end at the bottom of the window, so its last row shows without
   * scrolling the page (else the stylesheet's height) */
  fillWindow?: boolean;
}

/** The height that ends `element` at the bottom of the window (see fillHeight), kept up to
 * date as the window or what is above the box changes size. */
function useFillWindow(ref: RefObject<HTMLDivElement | null>, enabled: boolean) {
  const [height, setHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const measure = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      setHeight(fillHeight(top, window.innerHeight));
    };
    measure();
    // content above the box (a recap appearing, a wrapping toolbar) moves it down, and
    // makes one of its ancestors taller: watch them all (the body may keep the window's size)
    const observer = new ResizeObserver(measure);
    for (let node = element.parentElement; node; node = node.parentElement) {
      observer.observe(node);
    }
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [ref, enabled]);
  return enabled ? height : null;
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
  const filled = useFillWindow(ref, props.fillWindow ?? false);

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
    // past the end, which the browser clamps to the end of the box as it is now: the
    // `viewport` measured may be older (the box just resized to fit the window), and an end
    // computed from it would read as the reader scrolling up, turning follow off
    element.scrollTop = window.height;
    setScrollTop(element.scrollTop);
  }, [follow, count, viewport, rowHeight, window.height]);

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
      style={filled === null ? undefined : { height: filled }}
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
