import { Alert, Badge, Group, Loader, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Run } from "@/features/runs/api/get-run";
import { LogMatches } from "@/features/runs/components/log-matches";
import { LogViewer } from "@/features/runs/components/log-viewer";
import type { LogPosition } from "@/features/runs/hooks/use-log-position";
import {
  type LineStatusFilter,
  type LogFilter,
  isFiltered,
  useLogFilter,
} from "@/features/runs/hooks/use-log-filter";
import type { LineStore } from "@/features/runs/lib/line-store";
import { plural } from "@/lib/format";

const STATUS_OPTIONS: { value: LineStatusFilter; label: string }[] = [
  { value: "", label: "Any status" },
  { value: "failed", label: "Failed or unreachable" },
  { value: "unreachable", label: "Unreachable" },
  { value: "changed", label: "Changed" },
];

// two selects side by side in a phone's row, with the group's gap between them
const HALF = "calc(50% - var(--mantine-spacing-xs) / 2)";

interface RunOutputProps {
  run: Run;
  store: LineStore;
  live: boolean;
  connected: boolean;
  hosts: readonly string[];
  filter: LogFilter;
  onFilterChange: (filter: LogFilter) => void;
  position: LogPosition;
  /** a status line of the page's own (finding the first failure…), shown instead of counts */
  busy: string | null;
}

/** The whole output (following the end while the run goes on) or the lines a filter finds;
 * one compact toolbar, so that the log starts high and ends at the bottom of the window. */
export function RunOutput(props: RunOutputProps) {
  const { run, store, filter, onFilterChange, position } = props;
  useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [text, setText] = useState(filter.q);
  const [q] = useDebouncedValue(text.trim(), 300);

  // the filter cleared elsewhere (the recap, a jump to a failure) empties the search box too
  const [shownQ, setShownQ] = useState(filter.q);
  if (filter.q !== shownQ) {
    setShownQ(filter.q);
    if (filter.q === "") setText("");
  }

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

  const clearFilter = () => {
    setText("");
    applied.current = "";
    onFilterChange({ q: "", host: "", status: "" });
  };

  const pick = (line: number) => {
    clearFilter();
    position.showLine(line);
  };

  const items = matches.data?.pages.flatMap((page) => page.items) ?? [];
  let status: string;
  if (props.busy) status = props.busy;
  else if (!filtered) status = plural(store.count, "line");
  else if (matches.isPending) status = "Searching…";
  else {
    const more = matches.hasNextPage ? "+" : "";
    status = `${plural(items.length, "matching line")}${more}; pick one to see it in the whole output`;
  }

  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap" aria-label="Output filters" role="group">
        <TextInput
          aria-label="Search output"
          placeholder="Search the output"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          w={{ base: "100%", xs: 220 }}
          rightSection={matches.isFetching ? <Loader size="xs" /> : null}
        />
        <Select
          aria-label="Host"
          placeholder="All hosts"
          data={props.hosts.map((host) => ({ value: host, label: host }))}
          value={filter.host || null}
          onChange={(host) => onFilterChange({ ...filter, host: host ?? "" })}
          clearable
          searchable
          w={{ base: HALF, xs: 180 }}
        />
        <Select
          aria-label="Status"
          data={STATUS_OPTIONS}
          value={filter.status}
          onChange={(next) =>
            onFilterChange({ ...filter, status: (next ?? "") as LineStatusFilter })
          }
          allowDeselect={false}
          w={{ base: HALF, xs: 190 }}
        />
        <Group gap="sm" wrap="nowrap" justify="space-between" style={{ flexGrow: 1 }}>
          <Switch
            label="Follow"
            aria-label="Follow output"
            checked={position.follow}
            onChange={(event) => {
              const next = event.currentTarget.checked;
              position.setFollow(next);
              if (next) clearFilter();
            }}
            disabled={filtered}
          />
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed" aria-live="polite" ta="right">
              {status}
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
        </Group>
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
            fillWindow
          />
        )
      ) : (
        <LogViewer
          store={store}
          follow={position.follow}
          onFollowChange={position.setFollow}
          highlight={position.highlight}
          scrollTo={position.scrollTo}
          fillWindow
        />
      )}
    </Stack>
  );
}
