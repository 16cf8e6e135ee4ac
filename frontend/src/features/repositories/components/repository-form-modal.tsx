import { Alert, Button, Select, Text, TextInput, Textarea } from "@mantine/core";
import { LabelledSegments } from "@/components/labelled-segments";
import { NameDescriptionFields } from "@/components/name-description-fields";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { isApiError } from "@/api/errors";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { FieldHelp } from "@/components/new-in-place";
import { useKeyOptions } from "@/api/queries/project-options";
import { useSaveRepository } from "@/features/repositories/api/save-repository";
import type { CreateInPlace } from "@/lib/create-in-place";
import { useServerErrors } from "@/lib/form-errors";

type Repository = Schemas["RepositoryRead"];
type KeyKind = Schemas["KeyKind"];

interface RepositoryFormValues {
  name: string;
  description: string;
  kind: Schemas["RepositoryKind"];
  url: string;
  ref: string;
  key_id: string;
  ssh_known_hosts: string;
}

/** Where a local directory (or a file:// URL) of this project may be: its local directories. */
export function localDirectoryHint(localRoots: string[]): string {
  if (localRoots.length === 0) {
    return "None allowed yet: this project has no local directories; an admin assigns them in the project's settings";
  }
  return `An absolute path inside ${localRoots.join(" or ")}; used as it is, without git`;
}

/** The key kinds a git URL can use (the server checks it; this only narrows the picker). */
export function keyKindsForUrl(url: string): KeyKind[] {
  const value = url.trim().toLowerCase();
  if (value.startsWith("file://")) return [];
  if (value.startsWith("https://") || value.startsWith("http://")) return ["login_password"];
  if (value.startsWith("ssh://") || /^[^/\s]+@[^/\s]+:/.test(value)) return ["ssh"];
  return ["ssh", "login_password"];
}

function initialValues(repository: Repository | null): RepositoryFormValues {
  return {
    name: repository?.name ?? "",
    description: repository?.description ?? "",
    kind: repository?.kind ?? "git",
    url: repository?.url ?? "",
    ref: repository?.ref ?? "",
    key_id: repository?.key_id == null ? "" : String(repository.key_id),
    ssh_known_hosts: repository?.ssh_known_hosts ?? "",
  };
}

interface RepositoryFormModalProps {
  projectId: number;
  /** null: a new repository */
  repository: Repository | null;
  /** the project's local directories (assigned by admins) */
  localRoots?: string[];
  onClose: () => void;
  /** the saved repository, before the dialog closes (a form that asked for it selects it) */
  onSaved?: (repository: Repository) => void;
  /** the key dialog it may open in place ("New key" under its key) */
  create?: Pick<CreateInPlace, "key">;
}

export function RepositoryFormModal({
  projectId,
  repository,
  localRoots = [],
  onClose,
  onSaved,
  create,
}: RepositoryFormModalProps) {
  const save = useSaveRepository(projectId, repository?.id ?? null);
  const form = useForm<RepositoryFormValues>({
    mode: "controlled",
    initialValues: initialValues(repository),
  });
  const serverErrors = useServerErrors(form);
  const { kind, url } = form.values;
  const kinds = keyKindsForUrl(url);
  const overSsh = kind === "git" && kinds.length === 1 && kinds[0] === "ssh";
  const keyData = useKeyOptions(projectId, kinds, { keep: form.values.key_id }).data ?? [];

  // the server could not reach it with these values: saving it anyway is the user's call
  const [unreachable, setUnreachable] = useState(false);
  // the key dialog opened from the key field, above this one
  const [newKey, setNewKey] = useState(false);

  const send = (values: RepositoryFormValues, check: boolean) => {
    serverErrors.clear();
    setUnreachable(false);
    const local = values.kind === "local";
    const body = {
      name: values.name,
      description: values.description,
      kind: values.kind,
      url: values.url,
      ref: local ? "" : values.ref,
      key_id: local || values.key_id === "" ? null : Number(values.key_id),
      // only an ssh URL uses pinned host keys (the server refuses them for any other)
      ssh_known_hosts: overSsh ? values.ssh_known_hosts : "",
    };
    save.mutate(
      { body, check },
      {
        onSuccess: (saved) => {
          notifications.show({ color: "green", message: `Repository “${saved.name}” saved` });
          onSaved?.(saved);
          onClose();
        },
        onError: (error) => {
          serverErrors.show(error);
          // a 422 titled Unreachable: valid values that git could not use now
          setUnreachable(check && isApiError(error) && error.title === "Unreachable");
        },
      },
    );
  };
  const submit = form.onSubmit((values) => send(values, true));

  return (
    <>
      <FormModal
        onClose={onClose}
        covered={newKey}
        title={repository ? `Edit repository “${repository.name}”` : "New repository"}
        size="lg"
        onSubmit={submit}
        error={serverErrors.message}
        submitLabel={repository ? "Save" : "Create repository"}
        pending={save.isPending}
      >
        <NameDescriptionFields form={form} lines="one" />
        <LabelledSegments
          label="Kind"
          data={[
            { value: "git", label: "Git" },
            { value: "local", label: "Local directory" },
          ]}
          {...form.getInputProps("kind")}
        />
        <TextInput
          label={kind === "git" ? "URL" : "Directory on the server"}
          description={
            kind === "git"
              ? "https://…, ssh://…, user@host:path or file:///path (inside this project's local directories)"
              : localDirectoryHint(localRoots)
          }
          required
          autoComplete="off"
          spellCheck={false}
          {...form.getInputProps("url")}
        />
        {unreachable && (
          <Alert color="yellow" title="Not saved: the server could not use it as it is">
            <Text size="sm" mb="xs">
              The check above failed (the git server, the ref or the directory). Fix it, or save it
              anyway — runs will fail until it can be reached.
            </Text>
            <Button
              size="compact-sm"
              variant="light"
              color="yellow"
              loading={save.isPending}
              onClick={() => send(form.getValues(), false)}
            >
              Save anyway
            </Button>
          </Alert>
        )}
        {kind === "git" && (
          <>
            <TextInput
              label="Ref"
              description="Branch, tag or commit; empty for the remote's default branch"
              spellCheck={false}
              {...form.getInputProps("ref")}
            />
            <Select
              label="Key"
              description={
                <FieldHelp
                  text={
                    kinds.length === 0
                      ? "A file:// URL takes no key"
                      : `An ${kinds.join(" or ")} key from this project`
                  }
                  newLabel={kinds.length > 0 && create?.key ? "New key" : undefined}
                  onNew={() => setNewKey(true)}
                />
              }
              placeholder="No key"
              clearable
              data={keyData}
              nothingFoundMessage="No key of that kind in this project"
              {...form.getInputProps("key_id")}
              onChange={(value) => form.setFieldValue("key_id", value ?? "")}
            />
            {overSsh && (
              <Textarea
                label="SSH host keys of the git server"
                description="Empty: the key the server presents at the first fetch is pinned, and any other is refused from then on. Paste ssh-keyscan's lines to pin them in advance; clear it after a deliberate key change."
                placeholder="git.example.com ssh-ed25519 AAAA…"
                autosize
                minRows={2}
                maxRows={6}
                spellCheck={false}
                styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
                {...form.getInputProps("ssh_known_hosts")}
              />
            )}
          </>
        )}
      </FormModal>
      {newKey &&
        create?.key?.({
          kinds,
          onCreated: (id) => form.setFieldValue("key_id", String(id)),
          onClose: () => setNewKey(false),
        })}
    </>
  );
}
