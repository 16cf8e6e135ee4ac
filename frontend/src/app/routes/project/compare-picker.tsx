import { Button, Group, Text } from "@mantine/core";
import { useCallback, useState } from "react";
import { Link } from "react-router";
import { MAX_RUNS, MIN_RUNS } from "@/features/metrics/lib/compare";
import { paths } from "@/lib/paths";
import { plural } from "@/lib/format";

/** Runs ticked in a runs list to compare, oldest first (the oldest is the baseline). */
export function useRunPicks() {
  const [picked, setPicked] = useState<number[]>([]);
  const onToggle = useCallback(
    (runId: number) =>
      setPicked((current) =>
        current.includes(runId)
          ? current.filter((id) => id !== runId)
          : [...current, runId].sort((a, b) => a - b),
      ),
    [],
  );
  return { selected: picked, onToggle, clear: () => setPicked([]) };
}

/** The "Compare" action under a runs list: enabled for 2 to 4 ticked runs, else says why. */
export function ComparePicker({
  projectId,
  picks,
}: {
  projectId: number;
  picks: ReturnType<typeof useRunPicks>;
}) {
  const count = picks.selected.length;
  const problem =
    count < MIN_RUNS
      ? `Tick ${MIN_RUNS - count} more run${MIN_RUNS - count === 1 ? "" : "s"} to compare`
      : count > MAX_RUNS
        ? `At most ${MAX_RUNS} runs can be compared: untick ${count - MAX_RUNS}`
        : null;
  return (
    <Group gap="sm" wrap="wrap" role="region" aria-label="Compare runs" mih={30}>
      <Text size="sm" c={count > MAX_RUNS ? "red" : "dimmed"}>
        {count === 0
          ? `Tick ${MIN_RUNS} to ${MAX_RUNS} runs to compare them side by side.`
          : `${plural(count, "run")} picked${problem ? ` · ${problem}` : ""}`}
      </Text>
      {count > 0 && (
        <>
          {problem ? (
            <Button size="xs" disabled>
              Compare
            </Button>
          ) : (
            <Button size="xs" component={Link} to={paths.compareRuns(projectId, picks.selected)}>
              Compare
            </Button>
          )}
          <Button variant="subtle" size="xs" onClick={picks.clear}>
            Clear
          </Button>
        </>
      )}
    </Group>
  );
}
