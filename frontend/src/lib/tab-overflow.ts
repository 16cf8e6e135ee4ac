/**
 * How many tabs, from the first, stay in the row: all of them when their widths fit in
 * `available`; else as many as fit beside the "More" button (`moreWidth`), which lists the
 * rest. Widths in pixels; 0 widths (not measured yet) count as fitting.
 */
export function tabsInRow(widths: readonly number[], available: number, moreWidth: number): number {
  const total = widths.reduce((sum, width) => sum + width, 0);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let shown = 0;
  for (const width of widths) {
    if (used + width > available) break;
    used += width;
    shown += 1;
  }
  return shown;
}
