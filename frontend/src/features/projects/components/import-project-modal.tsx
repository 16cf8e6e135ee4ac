import { Alert, FileInput, List, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { FormModal } from "@/components/form-modal";
import { type ImportReport, useImportProject } from "@/features/projects/api/import-project";
import { describeCreated, readExport } from "@/features/projects/lib/export-file";
import { applyServerErrors } from "@/lib/form-errors";
import { paths } from "@/lib/paths";

interface Picked {
  document: Record<string, unknown>;
  fileName: string;
}

/** What needs attention in an imported project: keys without values, disabled schedules, … */
function Attention({ report }: { report: ImportReport }) {
  if (report.needs_attention.length === 0) {
    return <Text size="sm">Nothing needs attention.</Text>;
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Needs attention after the import ({report.needs_attention.length})
      </Text>
      <List size="sm" spacing={2} aria-label="Needs attention">
        {report.needs_attention.map((item, index) => (
          <List.Item key={`${item.kind}-${item.name}-${index}`}>
            <Text span size="sm" fw={500}>
              {item.kind.replaceAll("_", " ")} “{item.name}”
            </Text>
            : {item.reason}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/**
 * Import a project from an export document: pick the file (and a new name), see the dry run's
 * report, then import and go to the new project. Nothing is made before the second step.
 */
export function ImportProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const importProject = useImportProject();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);

  const close = () => {
    setPicked(null);
    setFile(null);
    setName("");
    setError(null);
    setReport(null);
    importProject.reset();
    onClose();
  };

  const pick = async (chosen: File | null) => {
    setFile(chosen);
    setReport(null);
    setError(null);
    setPicked(null);
    if (!chosen) return;
    const read = readExport(await chosen.text(), chosen.size);
    if (!read.ok) {
      setError(read.error);
      return;
    }
    setPicked({ document: read.document, fileName: chosen.name });
    setName((current) => current || read.name);
  };

  const body = (dryRun: boolean) => ({
    document: picked?.document ?? {},
    name: name.trim() || null,
    dry_run: dryRun,
  });

  const fail = (failure: unknown) =>
    setError(applyServerErrors({ getValues: () => ({}), setFieldError: () => {} }, failure));

  const submit = (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    setError(null);
    if (!picked) {
      setError("Pick an export file first.");
      return;
    }
    if (!report) {
      importProject.mutate(body(true), { onSuccess: setReport, onError: fail });
      return;
    }
    importProject.mutate(body(false), {
      onSuccess: (done) => {
        if (done.project_id === null) return;
        const attention = done.needs_attention.length;
        notifications.show({
          color: attention > 0 ? "yellow" : "green",
          autoClose: attention > 0 ? false : 4000,
          title: `Project “${done.project_name}” imported`,
          message:
            attention > 0
              ? `${attention === 1 ? "1 thing needs" : `${attention} things need`} attention: ${done.needs_attention
                  .map((item) => `${item.kind.replaceAll("_", " ")} “${item.name}”`)
                  .join(", ")}`
              : describeCreated(done.created),
        });
        const projectId = done.project_id;
        close();
        void navigate(paths.project(projectId));
      },
      onError: (failure) => {
        setReport(null);
        fail(failure);
      },
    });
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Import project"
      size="lg"
      onSubmit={submit}
      error={error}
      submitLabel={report ? "Import" : "Check"}
      pending={importProject.isPending}
    >
      <Text size="sm" c="dimmed">
        A file exported from a project&apos;s settings. Keys come without their secrets: give them
        values after the import. Schedules and webhooks come disabled.
      </Text>
      <FileInput
        label="Export file"
        placeholder="steward-….json"
        accept="application/json,.json"
        value={file}
        onChange={(chosen) => void pick(chosen)}
        clearable
      />
      <TextInput
        label="Name of the new project"
        description="Defaults to the name in the file"
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setReport(null);
        }}
      />
      {report && (
        <Alert color="blue" title="Dry run: nothing is made yet">
          <Stack gap="xs">
            <Text size="sm">
              Project “{report.project_name}” with {describeCreated(report.created)}.
            </Text>
            <Attention report={report} />
          </Stack>
        </Alert>
      )}
    </FormModal>
  );
}
