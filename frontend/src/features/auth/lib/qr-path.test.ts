import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { qrPath } from "@/features/auth/lib/qr-path";

/** The modules a path paints, back from its `M x y h w v1 h-w z` rectangles. */
function painted(path: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(w); i++) cells.add(`${Number(x) + i},${y}`);
  }
  return cells;
}

describe("qrPath", () => {
  it("paints runs of dark modules as one rectangle each", () => {
    expect(
      qrPath([
        [true, true, false, true],
        [false, false, false, false],
        [false, true, true, true],
      ]),
    ).toBe("M0 0h2v1h-2zM3 0h1v1h-1zM1 2h3v1h-3z");
    expect(qrPath([[false, false]])).toBe("");
  });

  it("paints exactly the dark modules of a real otpauth QR code", () => {
    const qr = encode("otpauth://totp/Steward:ada?secret=JBSWY3DPEHPK3PXP&issuer=Steward", {
      ecc: "M",
      border: 4,
    });
    const dark = new Set<string>();
    qr.data.forEach((row, y) => row.forEach((on, x) => on && dark.add(`${x},${y}`)));
    expect(dark.size).toBeGreaterThan(100);
    expect(painted(qrPath(qr.data))).toEqual(dark);
  });
});
