/**
 * Windowing for fixed-height rows. Browsers cap an element's height (about 17.8M px in Firefox,
 * 33.5M px in Chrome), and 1,000,000 lines of 20 px are 20M px, so past `maxHeight` the
 * scrollbar is scaled: one scrolled pixel moves `scale` pixels of content.
 */

export interface WindowInput {
  count: number;
  rowHeight: number;
  viewportHeight: number;
  scrollTop: number;
  /** extra rows rendered above and below the viewport */
  overscan?: number;
  maxHeight?: number;
}

export interface LogWindow {
  /** height of the scrollable content */
  height: number;
  /** first and last row rendered (last < first when there are none) */
  first: number;
  last: number;
  /** where the first rendered row's top goes, in content pixels */
  top: number;
  scale: number;
}

export const MAX_SCROLL_HEIGHT = 8_000_000;

function scaleOf(count: number, rowHeight: number, viewportHeight: number, maxHeight: number) {
  const real = count * rowHeight;
  if (real <= maxHeight) return { height: real, scale: 1 };
  const scrollable = Math.max(1, maxHeight - viewportHeight);
  return { height: maxHeight, scale: Math.max(1, (real - viewportHeight) / scrollable) };
}

export function computeWindow(input: WindowInput): LogWindow {
  const { count, rowHeight, viewportHeight, overscan = 10, maxHeight = MAX_SCROLL_HEIGHT } = input;
  const { height, scale } = scaleOf(count, rowHeight, viewportHeight, maxHeight);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), Math.max(0, height - viewportHeight));
  if (count === 0) return { height: 0, first: 0, last: -1, top: 0, scale };
  // the content offset of the viewport's top edge
  const offset = scrollTop * scale;
  const visibleFirst = Math.floor(offset / rowHeight);
  const visibleLast = Math.ceil((offset + viewportHeight) / rowHeight) - 1;
  const first = Math.max(0, visibleFirst - overscan);
  const last = Math.min(count - 1, visibleLast + overscan);
  // rows sit at their real offsets, shifted so the viewport's top shows `offset`
  const top = scrollTop + (first * rowHeight - offset);
  return { height, first, last, top, scale };
}

/** The scrollTop that puts `row` in the middle of the viewport (or at the top: align "start"). */
export function scrollTopFor(
  row: number,
  input: Omit<WindowInput, "scrollTop">,
  align: "center" | "start" | "end" = "center",
): number {
  const { count, rowHeight, viewportHeight, maxHeight = MAX_SCROLL_HEIGHT } = input;
  const { height, scale } = scaleOf(count, rowHeight, viewportHeight, maxHeight);
  const shift =
    align === "start"
      ? 0
      : align === "end"
        ? viewportHeight - rowHeight
        : (viewportHeight - rowHeight) / 2;
  const offset = row * rowHeight - shift;
  return Math.min(Math.max(0, offset / scale), Math.max(0, height - viewportHeight));
}
