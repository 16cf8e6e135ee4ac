/**
 * An SVG path drawing the dark modules of a QR code's matrix (`rows[y][x]` true = dark), one
 * unit square each, in a `0 0 size size` view box; runs of dark modules in a row are one
 * rectangle, so a path stays short.
 */
export function qrPath(rows: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  rows.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x += 1;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  });
  return parts.join("");
}
