import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { type Run, isActive } from "@/features/runs/api/get-run";
import { fetchFirstFailureLine } from "@/features/runs/api/get-run-output";
import { LogMatches } from "@/features/runs/components/log-matches";
import { LogViewer } from "@/features/runs/components/log-viewer";
import type { ScrollRequest } from "@/features/runs/components/virtual-rows";
import {
  type LineStatusFilter,
  type LogFilter,
  isFiltered,
  useLogFilter,
} from "@/features/runs/hooks/use-log-filter";
import type { LineStore } from "@/features/runs/lib/line-store";

const STATUS_OPTIONS: { value: LineStatusFilter; label: string }[] = [
  { value: "", label: "Any status" },
  { value: "failed", label: "Failed or unreachable" },
  { value: "unreachable", label: "Unreachable" },
  { value: "changed", label: "Changed" },
];

interface RunOutputProps {
  run: Run;
  store: LineStore;
  live: boolean;
  connected: boolean;
  hosts: readonly string[];
  filter: LogFilter;
  onFilterChange: (filter: LogFilter) => void;
}

export function RunOutput(props: RunOutputProps) {
  const { run, store, filter, onFilterChange } = props;
  useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [follow, setFollow] = useState(isActive(run.status));
  const [highlight, setHighlight] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<ScrollRequest | null>(null);
  const [text, setText] = useState(filter.q);
  const [q] = useDebouncedValue(text.trim(), 300);
  const [jumping, setJumping] = useState(false);

  // only a change of the typed text searches: clearing the filter elsewhere must not bring
  // back the text still waiting in the debounce
  const applied = useRef(q);
  useEffect(() => {
    if (q === applied.current) return;
    applied.current = q;
    if (q !== filter.q) onFilterChange({ ...filter, q });
  }, [q, filter, onFilterChange]);

  const matches = useLogFilter(run.project_id, run.id, filter, run.status);
  const filtered = isFiltered(filter);

  const showLine = (line: number) => {
    setFollow(false);
    setHighlight(line);
    setScrollTo((previous) => ({ row: line, seq: (previous?.seq ?? 0) + 1 }));
  };

  const clearFilter = () => {
    setText("");
    applied.current = "";
    onFilterChange({ q: "", host: "", status: "" });
  };

  const pick = (line: number) => {
    clearFilter();
    showLine(line);
  };

  const jumpToFailure = async () => {
    setJumping(true);
    try {
      const line = await fetchFirstFailureLine(run.project_id, run.id);
      if (line === null) {
        notifications.show({ message: "No task has failed in this run." });
      } else {
        pick(line);
      }
    } catch (error) {
      notifications.show({
        color: "red",
        title: "Could not find the failure",
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setJumping(false);
    }
  };

  const items = matches.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack gap="xs">
      <Group gap="xs" align="end" wrap="wrap">
        <TextInput
          label="Search output"
          placeholder="text in the output"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          w={{ base: "100%", xs: 220 }}
          rightSection={matches.isFetching ? <Loader size="xs" /> : null}
        />
        <Select
          label="Host"
          placeholder="All hosts"
          data={props.hosts.map((host) => ({ value: host, label: host }))}
          value={filter.host || null}
          onChange={(host) => onFilterChange({ ...filter, host: host ?? "" })}
          clearable
          searchable
          w={{ base: "48%", xs: 180 }}
        />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={filter.status}
          onChange={(status) =>
            onFilterChange({ ...filter, status: (status ?? "") as LineStatusFilter })
          }
          allowDeselect={false}
          w={{ base: "48%", xs: 190 }}
        />
        <Button variant="light" color="red" onClick={() => void jumpToFailure()} loading={jumping}>
          Jump to first failure
        </Button>
        <Switch
          label="Follow output"
          checked={follow}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setFollow(next);
            if (next) clearFilter();
          }}
          disabled={filtered}
          mb={8}
        />
      </Group>
      <Group gap="xs" justify="space-between">
        <Text size="xs" c="dimmed" aria-live="polite">
          {filtered
            ? matches.isPending
              ? "Searching…"
              : `${items.length.toLocaleString()}${matches.hasNextPage ? "+" : ""} matching lines; pick one to see it in the whole output`
            : `${store.count.toLocaleString()} lines`}
        </Text>
        {props.live && (
          <Badge
            variant="dot"
            color={props.connected ? "green" : "orange"}
            aria-label={props.connected ? "Live" : "Reconnecting"}
          >
            {props.connected ? "live" : "reconnecting…"}
          </Badge>
        )}
      </Group>
      {store.error && (
        <Text size="xs" c="red">
          Some lines could not be loaded ({store.error.message}); retrying.
        </Text>
      )}
      {filtered ? (
        matches.isError ? (
          <Alert color="red" title="Search failed">
            {matches.error.message}
          </Alert>
        ) : (
          <LogMatches
            matches={items}
            hasMore={matches.hasNextPage}
            loadMore={() => {
              if (!matches.isFetchingNextPage) void matches.fetchNextPage();
            }}
            onPick={pick}
          />
        )
      ) : (
        <LogViewer
          store={store}
          follow={follow}
          onFollowChange={setFollow}
          highlight={highlight}
          scrollTo={scrollTo}
        />
      )}
    </Stack>
  );
}
