import { Anchor, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { CompareRunsMetrics } from "@/features/metrics/components/compare-runs-metrics";
import { paths } from "@/lib/paths";

const MAX_RUNS = 4;

/** "12, 15 18" -> [12, 15, 18]: positive ids, each once, at most four. */
function runIdsOf(text: string): number[] {
  const ids = text
    .split(/[\s,]+/)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return [...new Set(ids)].slice(0, MAX_RUNS);
}

export function Component() {
  const { project } = useProjectContext();
  const [params, setParams] = useSearchParams();
  const runIds = runIdsOf(params.get("runs") ?? "");
  const [text, setText] = useState(runIds.join(", "));
  return (
    <Stack>
      <Anchor component={Link} to={paths.project(project.id, "runs")} size="sm">
        ← Runs
      </Anchor>
      <Title order={2}>Compare runs</Title>
      <TextInput
        label="Runs"
        description="2 to 4 run numbers of this project, e.g. 12, 15"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={() => setParams({ runs: runIdsOf(text).join(",") })}
        onKeyDown={(event) => {
          if (event.key === "Enter") setParams({ runs: runIdsOf(text).join(",") });
        }}
        maw={360}
      />
      {runIds.length >= 2 ? (
        <CompareRunsMetrics key={runIds.join(",")} projectId={project.id} runIds={runIds} />
      ) : (
        <Text c="dimmed">Name at least two runs to compare.</Text>
      )}
    </Stack>
  );
}
