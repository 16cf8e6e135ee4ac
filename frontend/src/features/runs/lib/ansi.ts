/**
 * A small ANSI SGR parser for ansible's coloured output: foreground colours 30–37 and 90–97,
 * bold, and resets. Every other escape sequence (cursor moves, 256/true colours, OSC titles)
 * is dropped, so the text renders as plain spans with classes and never as HTML.
 */

export type AnsiColor =
  "black" | "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "white";

const COLORS: readonly AnsiColor[] = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
];

export interface AnsiStyle {
  color: AnsiColor | null;
  bright: boolean;
  bold: boolean;
}

export interface AnsiSegment extends AnsiStyle {
  text: string;
}

const PLAIN: AnsiStyle = { color: null, bright: false, bold: false };

// CSI (ESC [ params final), OSC (ESC ] ... BEL or ESC \), or any other two-byte escape
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b(?:\[([0-9;:?<=>]*)[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_]?)/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) next = { ...PLAIN };
    else if (code === 1) next.bold = true;
    else if (code === 22) next.bold = false;
    else if (code === 39) next = { ...next, color: null, bright: false };
    else if (code >= 30 && code <= 37)
      next = { ...next, color: COLORS[code - 30] ?? null, bright: false };
    else if (code >= 90 && code <= 97)
      next = { ...next, color: COLORS[code - 90] ?? null, bright: true };
    else if (code === 38 || code === 48) {
      // extended colours are not rendered; skip their arguments so they aren't read as codes
      const mode = codes[i + 1];
      i += mode === 5 ? 2 : mode === 2 ? 4 : 1;
    }
  }
  return next;
}

function push(segments: AnsiSegment[], text: string, style: AnsiStyle) {
  const clean = text.replace(CONTROL, "");
  if (clean === "") return;
  const last = segments[segments.length - 1];
  if (
    last &&
    last.color === style.color &&
    last.bright === style.bright &&
    last.bold === style.bold
  ) {
    last.text += clean;
  } else {
    segments.push({ text: clean, ...style });
  }
}

/**
 * Split one line into styled segments. `initial` is the style in effect at its start (a colour
 * opened on one line and reset on a later one); the style at its end comes back as `style`.
 */
export function parseAnsi(
  line: string,
  initial: AnsiStyle = PLAIN,
): { segments: AnsiSegment[]; style: AnsiStyle } {
  const segments: AnsiSegment[] = [];
  let style = initial;
  if (!line.includes("\x1b")) {
    push(segments, line, style);
    return { segments, style };
  }
  let at = 0;
  for (const match of line.matchAll(ESCAPE)) {
    push(segments, line.slice(at, match.index), style);
    at = match.index + match[0].length;
    const params = match[1];
    if (params !== undefined && match[0].endsWith("m") && /^[0-9;:]*$/.test(params)) {
      style = applySgr(style, params);
    }
  }
  push(segments, line.slice(at), style);
  return { segments, style };
}

/** The text without any escape sequence (for copying, searching, titles). */
export function stripAnsi(line: string): string {
  return line.replace(ESCAPE, "").replace(CONTROL, "");
}
