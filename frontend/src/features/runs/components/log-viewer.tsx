import { memo, useCallback, useSyncExternalStore } from "react";
import { AnsiText } from "@/features/runs/components/ansi-text";
import { type ScrollRequest, VirtualRows } from "@/features/runs/components/virtual-rows";
import type { LineStore } from "@/features/runs/lib/line-store";
import classes from "@/features/runs/components/log-viewer.module.css";

export const ROW_HEIGHT = 20;

const LogLine = memo(function LogLine(props: {
  n: number;
  text: string | undefined;
  highlighted: boolean;
}) {
  const { n, text, highlighted } = props;
  return (
    <div className={classes.row} data-line={n} data-highlight={highlighted || undefined}>
      <span className={classes.number}>{n + 1}</span>
      {text === undefined ? (
        <span className={classes.pending} aria-label="loading">
          …
        </span>
      ) : (
        <span className={classes.text}>
          <AnsiText text={text} />
        </span>
      )}
    </div>
  );
});

interface LogViewerProps {
  store: LineStore;
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
  /** line number to mark (a failure, a picked match) */
  highlight: number | null;
  scrollTo: ScrollRequest | null;
  initialHeight?: number;
  /** end the box at the bottom of the window (the run page) */
  fillWindow?: boolean;
}

/** The whole output, windowed: only the rows in view are rendered and only their chunks loaded. */
export function LogViewer(props: LogViewerProps) {
  const { store, highlight } = props;
  const version = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const onRange = useCallback(
    (first: number, last: number) => store.ensure(first, last),
    // a new version may have made a range loadable (count grew, a retry is due)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, version],
  );
  return (
    <VirtualRows
      label="Run output"
      count={store.count}
      rowHeight={ROW_HEIGHT}
      onRange={onRange}
      follow={props.follow}
      onFollowChange={props.onFollowChange}
      scrollTo={props.scrollTo}
      initialHeight={props.initialHeight}
      fillWindow={props.fillWindow}
      renderRow={(n) => <LogLine key={n} n={n} text={store.get(n)} highlighted={n === highlight} />}
    />
  );
}
