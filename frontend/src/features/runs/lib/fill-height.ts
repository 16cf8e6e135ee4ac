/**
 * The height that makes a box starting `top` px down the page (its offset in the document, not
 * the viewport) end `gap` px above the bottom of a viewport `viewportHeight` tall, when the
 * page is scrolled to the top: so its last row shows without scrolling the page. Never below
 * `min` (a box squeezed to nothing helps nobody: then the page scrolls) nor above `max`.
 */
export function fillHeight(
  top: number,
  viewportHeight: number,
  { min = 200, max = 2000, gap = 16 }: { min?: number; max?: number; gap?: number } = {},
): number {
  return Math.round(Math.min(max, Math.max(min, viewportHeight - top - gap)));
}
