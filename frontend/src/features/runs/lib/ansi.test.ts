import { describe, expect, it } from "vitest";
import { parseAnsi, stripAnsi } from "@/features/runs/lib/ansi";

const ESC = "\x1b";

describe("parseAnsi", () => {
  it("keeps plain text as one unstyled segment", () => {
    expect(parseAnsi("ok: [localhost]").segments).toEqual([
      { text: "ok: [localhost]", color: null, bright: false, bold: false },
    ]);
  });

  it("colours text between a colour code and the reset", () => {
    const { segments, style } = parseAnsi(`${ESC}[0;32mok: [web1]${ESC}[0m done`);
    expect(segments).toEqual([
      { text: "ok: [web1]", color: "green", bright: false, bold: false },
      { text: " done", color: null, bright: false, bold: false },
    ]);
    expect(style).toEqual({ color: null, bright: false, bold: false });
  });

  it("reads bright colours, bold, and combined parameters", () => {
    const { segments } = parseAnsi(`${ESC}[1;91mfatal${ESC}[22m: x${ESC}[39m y`);
    expect(segments).toEqual([
      { text: "fatal", color: "red", bright: true, bold: true },
      { text: ": x", color: "red", bright: true, bold: false },
      { text: " y", color: null, bright: false, bold: false },
    ]);
  });

  it("treats an empty SGR as a reset and carries style in from the previous line", () => {
    const carried = parseAnsi(`${ESC}[33mchanged`).style;
    const { segments } = parseAnsi(`still yellow${ESC}[m plain`, carried);
    expect(segments.map((s) => [s.text, s.color])).toEqual([
      ["still yellow", "yellow"],
      [" plain", null],
    ]);
  });

  it("drops other escapes: cursor moves, 256 colours, OSC titles, control characters", () => {
    const line = `${ESC}[2K${ESC}]0;title\x07a${ESC}[38;5;208mb${ESC}[31;48;2;1;2;3mc\rd${ESC}(B`;
    const { segments } = parseAnsi(line);
    expect(segments.map((s) => s.text).join("")).toBe("abcd(B");
    // 38;5;208 is skipped whole: 208 is not read as a code, and 31 still applies
    expect(segments.find((s) => s.text.startsWith("c"))?.color).toBe("red");
  });

  it("never lets markup through as anything but text", () => {
    expect(parseAnsi("<b>&amp;</b>").segments[0]?.text).toBe("<b>&amp;</b>");
  });
});

describe("stripAnsi", () => {
  it("leaves the text alone", () => {
    expect(stripAnsi(`${ESC}[0;31mfailed: [db1]${ESC}[0m`)).toBe("failed: [db1]");
  });
});
