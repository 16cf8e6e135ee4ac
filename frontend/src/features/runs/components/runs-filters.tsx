import { Button, Group, MultiSelect, Pill, Select, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { useState } from "react";
import { useRunFilterOptions } from "@/features/runs/api/get-run-filter-options";
import { type RunFilterValues, useRunFilters } from "@/features/runs/hooks/use-run-filters";
import { RUN_STATUSES, runStatusLabel } from "@/lib/run-status";

const STATUS_OPTIONS = RUN_STATUSES.map((status) => ({
  value: status,
  label: runStatusLabel(status),
}));

/** Filters of a project's runs list: template, status, launcher, host, launch values
 * (`db_name:ORCL`, `limit:db01`), time range (in the URL). */
export function RunsFilters({ projectId }: { projectId: number }) {
  const { values, setValues, active } = useRunFilters();
  const { templateOptions, launcherOptions } = useRunFilterOptions(projectId);
  const [host, setHost] = useState(values.host);
  const setHostLater = useDebouncedCallback((text: string) => setValues({ host: text }), 400);
  const set = (next: Partial<RunFilterValues>) => setValues(next);
  const [value, setValue] = useState("");
  const valueProblem =
    value && value.indexOf(":") <= 0 ? "Write name:value, e.g. db_name:ORCL" : null;
  const addValue = () => {
    if (!value || valueProblem) return;
    set({ values: [...values.values, value.trim()] });
    setValue("");
  };

  return (
    <Group gap="xs" align="end" wrap="wrap" role="search" aria-label="Filter runs">
      <Select
        label="Template"
        placeholder="Any"
        data={templateOptions}
        value={values.template || null}
        onChange={(template) => set({ template: template ?? "" })}
        clearable
        searchable
        w={{ base: "100%", xs: 200 }}
      />
      <MultiSelect
        label="Status"
        placeholder={values.status.length ? undefined : "Any"}
        data={STATUS_OPTIONS}
        value={values.status}
        onChange={(status) => set({ status: status as RunFilterValues["status"] })}
        clearable
        w={{ base: "100%", xs: 240 }}
      />
      <Select
        label="Launched by"
        placeholder="Anyone"
        data={launcherOptions}
        value={values.launcher || null}
        onChange={(launcher) => set({ launcher: launcher ?? "" })}
        clearable
        searchable
        w={{ base: "100%", xs: 170 }}
      />
      <TextInput
        label="Host"
        placeholder="ran on host"
        value={host}
        onChange={(event) => {
          setHost(event.currentTarget.value);
          setHostLater(event.currentTarget.value);
        }}
        w={{ base: "100%", xs: 150 }}
      />
      <TextInput
        label="Launch value"
        placeholder="db_name:ORCL"
        description={values.values.length ? undefined : "answer, extra var or limit, tags…"}
        value={value}
        error={valueProblem}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") addValue();
        }}
        onBlur={addValue}
        w={{ base: "100%", xs: 200 }}
      />
      {values.values.length > 0 && (
        <Pill.Group aria-label="Launch values filtered by">
          {values.values.map((v) => (
            <Pill
              key={v}
              withRemoveButton
              onRemove={() => set({ values: values.values.filter((other) => other !== v) })}
              removeButtonProps={{ "aria-label": `Remove the filter ${v}` }}
            >
              {v}
            </Pill>
          ))}
        </Pill.Group>
      )}
      <TextInput
        type="datetime-local"
        label="From"
        value={values.since}
        onChange={(event) => set({ since: event.currentTarget.value })}
        w={{ base: "48%", xs: 200 }}
      />
      <TextInput
        type="datetime-local"
        label="Until"
        value={values.until}
        onChange={(event) => set({ until: event.currentTarget.value })}
        w={{ base: "48%", xs: 200 }}
      />
      {active && (
        <Button
          variant="subtle"
          onClick={() => {
            setHost("");
            set({
              template: "",
              status: [],
              launcher: "",
              host: "",
              since: "",
              until: "",
              values: [],
            });
          }}
        >
          Clear filters
        </Button>
      )}
    </Group>
  );
}
