import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { ConfirmModal } from "@/components/confirm-modal";
import { FormError } from "@/components/form-error";
import { QueryState } from "@/components/query-state";
import {
  type Token,
  type TokenCreate,
  type TokenCreated,
  useCreateToken,
  useRevokeToken,
  useTokens,
} from "@/features/auth/api/account";
import {
  EXPIRY_CHOICES,
  type ExpiryChoice,
  expiresAt,
  tokenState,
} from "@/features/auth/lib/token-expiry";
import { useNow } from "@/hooks/use-now";
import { useServerErrors } from "@/lib/form-errors";
import { formatDateTime } from "@/lib/format";
import { ColumnsTable } from "@/components/columns-table";
import { RowButton } from "@/components/row-actions";

const SCOPES = [
  { value: "read", label: "Read" },
  { value: "run", label: "Run" },
  { value: "write", label: "Write" },
];

const SCOPE_HELP: Record<string, string> = {
  read: "sees what you see, changes nothing",
  run: "also launches and cancels runs",
  write: "does everything you may do",
};

interface TokenValues {
  name: string;
  scope: "read" | "run" | "write";
  expiry: ExpiryChoice;
  date: string;
}

/** The request for a token made now; undefined when the picked day is unreadable. */
function tokenBody(values: TokenValues): TokenCreate | undefined {
  const expires = expiresAt(values.expiry, values.date, Date.now());
  if (expires === undefined) return undefined;
  return { name: values.name, scope: values.scope, expires_at: expires };
}

function CreateTokenForm({ onCreated }: { onCreated: (token: TokenCreated) => void }) {
  const create = useCreateToken();
  const form = useForm<TokenValues>({
    initialValues: { name: "", scope: "read", expiry: "90", date: "" },
    validate: {
      date: (_value, values) => (tokenBody(values) === undefined ? "Pick a day" : null),
    },
  });
  const serverErrors = useServerErrors(form, { aliases: { expires_at: "date" } });
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const body = tokenBody(values);
    if (!body) return;
    create.mutate(body, {
      onSuccess: (token) => {
        form.reset();
        onCreated(token);
      },
      onError: (error) => serverErrors.show(error),
    });
  });
  const { values } = form;
  return (
    <form onSubmit={submit} noValidate aria-label="New API token">
      <Stack gap="sm" maw={560}>
        <TextInput
          label="Name"
          description="What it is for: “backup script on db01”"
          required
          {...form.getInputProps("name")}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="token-scope-label">
            Scope
          </Text>
          <SegmentedControl
            aria-labelledby="token-scope-label"
            data={SCOPES}
            {...form.getInputProps("scope")}
          />
          <Text size="xs" c="dimmed">
            {SCOPE_HELP[values.scope]}; never more than your own rights
          </Text>
        </Stack>
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Expires"
            data={EXPIRY_CHOICES}
            allowDeselect={false}
            w={180}
            {...form.getInputProps("expiry")}
          />
          {values.expiry === "date" && (
            <TextInput label="Last day" type="date" w={180} {...form.getInputProps("date")} />
          )}
        </Group>
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The secret of a token just made: shown here once, never again. */
function NewTokenSecret({ token, onDone }: { token: TokenCreated; onDone: () => void }) {
  return (
    <Alert color="green" title={`Token “${token.name}” created`} role="status">
      <Stack gap="xs">
        <Text size="sm">Copy it now: it is not shown again.</Text>
        <Code block aria-label="New token secret" style={{ wordBreak: "break-all" }}>
          {token.token}
        </Code>
        <Group gap="xs">
          <CopyButton value={token.token}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? "Copied" : "Copy"}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

const STATE_COLOR = { active: "green", revoked: "gray", expired: "orange" } as const;

function TokensTable({ tokens, onRevoke }: { tokens: Token[]; onRevoke: (t: Token) => void }) {
  const now = useNow(60_000, true);
  return (
    <ColumnsTable
      label="API tokens"
      compact
      rows={tokens}
      rowKey={(token) => token.id}
      columns={[
        {
          key: "name",
          header: "Name",
          cell: (token) => {
            const state = tokenState(token, now);
            return (
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {token.name}
                </Text>
                <Group gap={4}>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {token.prefix}…
                  </Text>
                  {state !== "active" && (
                    <Badge size="xs" color={STATE_COLOR[state]}>
                      {state}
                    </Badge>
                  )}
                </Group>
              </Stack>
            );
          },
        },
        { key: "scope", header: "Scope", cell: (token) => token.scope },
        {
          key: "used",
          header: "Last used",
          visibleFrom: "sm",
          cell: (token) => (token.last_used_at ? formatDateTime(token.last_used_at) : "never"),
        },
        {
          key: "expires",
          header: "Expires",
          visibleFrom: "md",
          cell: (token) => (token.expires_at ? formatDateTime(token.expires_at) : "never"),
        },
        {
          key: "created",
          header: "Created",
          visibleFrom: "md",
          cell: (token) => formatDateTime(token.created_at),
        },
        {
          key: "actions",
          td: { ta: "right" },
          cell: (token) =>
            tokenState(token, now) === "active" && (
              <RowButton label={`Revoke ${token.name}`} color="red" onClick={() => onRevoke(token)}>
                Revoke
              </RowButton>
            ),
        },
      ]}
    />
  );
}

/** Your API tokens for scripts and CI: make one (its secret shown once), see use, revoke. */
export function TokensPanel() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);

  return (
    <Stack>
      {created ? (
        <NewTokenSecret token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm onCreated={setCreated} />
      )}
      <QueryState query={tokens} loading="Loading tokens" failed="Could not load your tokens" small>
        {(data) =>
          data.length === 0 ? (
            <Text c="dimmed">No tokens yet.</Text>
          ) : (
            <TokensTable tokens={[...data].sort((a, b) => b.id - a.id)} onRevoke={setRevoking} />
          )
        }
      </QueryState>
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke token “${revoking?.name ?? ""}”?`}
        message="Scripts using it stop working at once. This cannot be undone."
        confirmLabel="Revoke"
        onConfirm={() => revoke.mutateAsync(revoking?.id ?? 0)}
      />
    </Stack>
  );
}
