import { memo } from "react";
import { parseAnsi } from "@/features/runs/lib/ansi";
import classes from "@/features/runs/components/log-viewer.module.css";

/** One line of output with its ANSI colours as styled spans (text only, never HTML). */
export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  const { segments } = parseAnsi(text);
  return (
    <>
      {segments.map((segment, index) => {
        const names = [
          segment.color && classes[segment.color],
          segment.color && segment.bright && classes.bright,
          segment.bold && classes.bold,
        ].filter(Boolean);
        return names.length === 0 ? (
          segment.text
        ) : (
          <span key={index} className={names.join(" ")}>
            {segment.text}
          </span>
        );
      })}
    </>
  );
});
