import { useCallback } from "react";
import { AnsiText } from "@/features/runs/components/ansi-text";
import { ROW_HEIGHT } from "@/features/runs/components/log-viewer";
import { VirtualRows } from "@/features/runs/components/virtual-rows";
import classes from "@/features/runs/components/log-viewer.module.css";

export interface Match {
  n: number;
  text: string;
}

interface LogMatchesProps {
  matches: readonly Match[];
  hasMore: boolean;
  loadMore: () => void;
  onPick: (line: number) => void;
  initialHeight?: number;
  fillWindow?: boolean;
}

/** The lines a filter found, windowed like the log; picking one shows it in the whole log. */
export function LogMatches(props: LogMatchesProps) {
  const { matches, hasMore, loadMore, onPick, initialHeight, fillWindow } = props;
  const onRange = useCallback(
    (_first: number, last: number) => {
      if (hasMore && last >= matches.length - 50) loadMore();
    },
    [hasMore, loadMore, matches.length],
  );
  return (
    <VirtualRows
      label="Matching lines"
      count={matches.length + (hasMore ? 1 : 0)}
      rowHeight={ROW_HEIGHT}
      onRange={onRange}
      initialHeight={initialHeight}
      fillWindow={fillWindow}
      renderRow={(index) => {
        const match = matches[index];
        if (!match) {
          return (
            <div key="more" className={`${classes.row} ${classes.pending}`}>
              <span className={classes.number} />
              loading more…
            </div>
          );
        }
        return (
          <button
            key={match.n}
            type="button"
            className={classes.match}
            onClick={() => onPick(match.n)}
            title={`Show line ${match.n + 1} in the whole output`}
          >
            <span className={classes.number}>{match.n + 1}</span>
            <span className={classes.text}>
              <AnsiText text={match.text} />
            </span>
          </button>
        );
      }}
    />
  );
}
