import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Popover,
  Stack,
  TextInput,
  Textarea,
  Tooltip,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Run } from "@/features/runs/api/get-run";
import { useLabelRun } from "@/features/runs/api/run-actions";
import { FormError } from "@/components/form-error";
import { useServerErrors } from "@/lib/form-errors";

type Labelled = Pick<Run, "id" | "project_id" | "label" | "note">;

/** The run's label ("TDE on"), its note on hover; nothing for a run without either. */
export function RunLabel({ run }: { run: Pick<Run, "id" | "label" | "note"> }) {
  if (!run.label && !run.note) return null;
  const badge = (
    <Badge
      variant="light"
      color="grape"
      size="sm"
      tt="none"
      maw={220}
      aria-label={`Label of run ${run.id}: ${run.label || "(note only)"}`}
    >
      {run.label || "note"}
    </Badge>
  );
  if (!run.note) return badge;
  return (
    <Tooltip label={run.note} multiline w={280} style={{ whiteSpace: "pre-wrap" }}>
      {badge}
    </Tooltip>
  );
}

/** A pencil opening the label and note of a run (for who may launch its template: the
 * server decides, and says so when it refuses). */
export function RunLabelEditor({ run }: { run: Labelled }) {
  const [opened, setOpened] = useState(false);
  const save = useLabelRun(run.project_id, run.id);
  const form = useForm({ initialValues: { label: run.label ?? "", note: run.note ?? "" } });
  const errors = useServerErrors(form);
  const open = () => {
    form.setValues({ label: run.label ?? "", note: run.note ?? "" });
    errors.clear();
    setOpened(true);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow trapFocus>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="sm"
          color="gray"
          onClick={() => (opened ? setOpened(false) : open())}
          aria-label={`Label run ${run.id}`}
        >
          ✎
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={form.onSubmit((values) => {
            errors.clear();
            save.mutate(values, {
              onSuccess: () => setOpened(false),
              onError: (error) => errors.show(error),
            });
          })}
        >
          <Stack gap="xs" w={260}>
            <TextInput
              label="Label"
              description="What it is called when compared"
              placeholder="baseline, TDE on"
              maxLength={60}
              data-autofocus
              {...form.getInputProps("label")}
            />
            <Textarea
              label="Note"
              autosize
              minRows={2}
              maxRows={6}
              maxLength={2000}
              {...form.getInputProps("note")}
            />
            <FormError message={errors.message} />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" size="xs" loading={save.isPending}>
                Save label
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
