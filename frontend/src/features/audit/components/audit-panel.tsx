import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Code,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { Fragment, useState } from "react";
import { Link } from "react-router";
import { OlderButton } from "@/components/older-button";
import { type TextField, TextFields } from "@/components/text-fields";
import { type AuditFilters, auditExportUrl, useAudit } from "@/features/audit/api/get-audit";
import { auditLink, describeObject } from "@/features/audit/lib/audit-link";
import { formatDateTime } from "@/lib/format";

export interface FilterValues {
  actor: string;
  action: string;
  since: string;
  until: string;
  q: string;
  instance: boolean;
}

const EMPTY: FilterValues = { actor: "", action: "", since: "", until: "", q: "", instance: false };

const FILTER_FIELDS: readonly TextField<keyof Omit<FilterValues, "instance">>[] = [
  { name: "actor", label: "Actor", placeholder: "username" },
  { name: "action", label: "Action", placeholder: "run:launch, or run" },
  { name: "since", label: "Since (date and time)", type: "datetime-local" },
  { name: "until", label: "Until (date and time)", type: "datetime-local" },
  { name: "q", label: "Text", placeholder: "Search" },
];

/** datetime-local text (the reader's time) as the API's ISO 8601 instant. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The form's values as the API's filters: a project's page keeps to its project; the
 * instance's page (no project) may keep to the records of no project. */
export function toAuditFilters(projectId: number | undefined, v: FilterValues): AuditFilters {
  return {
    project_id: projectId,
    actor: v.actor.trim() || undefined,
    action: v.action.trim() || undefined,
    since: instant(v.since),
    until: instant(v.until),
    q: v.q.trim() || undefined,
    instance: projectId === undefined && v.instance ? true : undefined,
  };
}

/** An audit trail: who did what, when; filters, and the export of what is shown. With a
 * `projectId`, the project's; without, the whole instance's (admins: sign-ins, failed
 * sign-ins, users, teams, tokens, and every project), which may keep to the records of no
 * project. */
export function AuditPanel({ projectId, isAdmin }: { projectId?: number; isAdmin: boolean }) {
  const [filters, setFilters] = useState<AuditFilters>({ project_id: projectId });
  const [open, setOpen] = useState<number | null>(null);
  const audit = useAudit(filters);
  const form = useForm<FilterValues>({ mode: "uncontrolled", initialValues: EMPTY });
  const rows = audit.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack>
      <form
        onSubmit={form.onSubmit((values) => setFilters(toAuditFilters(projectId, values)))}
        onReset={() => {
          form.reset();
          setFilters({ project_id: projectId });
        }}
        aria-label="Audit filters"
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
          <TextFields form={form} fields={FILTER_FIELDS} />
        </SimpleGrid>
        {projectId === undefined && (
          <Checkbox
            mt="sm"
            label="Only the instance's own records (sign-ins, users, teams, tokens)"
            key={form.key("instance")}
            {...form.getInputProps("instance", { type: "checkbox" })}
          />
        )}
        <Group mt="sm" justify="space-between">
          <Group gap="xs">
            <Button type="submit">Filter</Button>
            <Button type="reset" variant="default">
              Clear
            </Button>
          </Group>
          <Group gap="md">
            <Anchor href={auditExportUrl(filters)} download>
              Export as JSON lines
            </Anchor>
            <Anchor href={auditExportUrl(filters, "csv")} download>
              Export as CSV
            </Anchor>
          </Group>
        </Group>
      </form>
      {audit.error && (
        <Alert color="red" title="Could not load the audit trail">
          {audit.error.message}
        </Alert>
      )}
      {audit.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the audit trail" />
        </Center>
      )}
      {audit.data && rows.length === 0 && <Text c="dimmed">No records match.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={0}>
          <Table aria-label="Audit trail" verticalSpacing="xs" fz="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th visibleFrom="sm">Address</Table.Th>
                <Table.Th visibleFrom="lg">Detail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const link = auditLink(row, isAdmin);
                const subject = describeObject(row);
                return (
                  <Fragment key={row.id}>
                    <Table.Tr>
                      <Table.Td style={{ whiteSpace: "nowrap" }}>
                        {formatDateTime(row.created_at)}
                      </Table.Td>
                      <Table.Td>
                        {row.actor}
                        {row.actor_type !== "user" && (
                          <Text size="xs" c="dimmed">
                            {row.actor_type}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component="button"
                          type="button"
                          ff="monospace"
                          size="sm"
                          aria-expanded={open === row.id}
                          onClick={() => setOpen(open === row.id ? null : row.id)}
                        >
                          {row.action}
                        </Anchor>{" "}
                        {link ? (
                          <Anchor component={Link} to={link} size="sm">
                            {subject}
                          </Anchor>
                        ) : (
                          <Text span size="sm">
                            {subject}
                          </Text>
                        )}
                        <Text size="xs" c="dimmed" hiddenFrom="sm">
                          from {row.source_ip || "an unknown address"}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm" ff="monospace" fz="xs">
                        {row.source_ip || "—"}
                      </Table.Td>
                      <Table.Td visibleFrom="lg">
                        <Text size="sm" lineClamp={1}>
                          {row.detail}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                    {open === row.id && (
                      <Table.Tr>
                        <Table.Td colSpan={5}>
                          <Stack gap={4}>
                            <Text size="xs" c="dimmed">
                              {subject} · from {row.source_ip || "?"} · {row.user_agent}
                            </Text>
                            {row.detail && <Text size="sm">{row.detail}</Text>}
                            <Code block>{JSON.stringify(row.changes, null, 2)}</Code>
                          </Stack>
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {audit.hasNextPage && (
        <Group>
          <OlderButton pages={audit}>Older records</OlderButton>
        </Group>
      )}
    </Stack>
  );
}
