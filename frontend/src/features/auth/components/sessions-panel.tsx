import { Badge, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { ConfirmModal } from "@/components/confirm-modal";
import { type WebSession, useEndSession, useSessions } from "@/features/auth/api/account";
import { formatDateTime } from "@/lib/format";
import { QueryState } from "@/components/query-state";
import { ActionsHeader, RowButton } from "@/components/row-actions";

/** "Firefox 128 on Linux" out of a user agent string, or the string itself. */
export function describeAgent(agent: string): string {
  if (!agent) return "unknown browser";
  const browser =
    /(Edg|OPR|Firefox|Chrome|Chromium|Safari)\/(\d+)/.exec(agent) ??
    /(curl|python-httpx|python-requests|HeadlessChrome)\/?(\d+)?/i.exec(agent);
  const os = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(agent)?.[1];
  if (!browser) return agent.slice(0, 60);
  const name = { Edg: "Edge", OPR: "Opera" }[browser[1] ?? ""] ?? browser[1];
  const version = browser[2] ? ` ${browser[2]}` : "";
  return `${name}${version}${os ? ` on ${os.replace("Mac OS X", "macOS")}` : ""}`;
}

/** Where you are signed in; sign out any other browser (a lost laptop, a shared machine). */
export function SessionsPanel() {
  const sessions = useSessions();
  const end = useEndSession();
  const [ending, setEnding] = useState<WebSession | null>(null);

  return (
    <QueryState
      query={sessions}
      loading="Loading sessions"
      failed="Could not load your sessions"
      small
    >
      {(data) => (
        <Stack>
          <Text size="sm" c="dimmed">
            Browsers signed in as you. Changing your password signs out all but this one.
          </Text>
          <Table.ScrollContainer minWidth={0}>
            <Table aria-label="Sessions" verticalSpacing="xs" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Browser</Table.Th>
                  <Table.Th visibleFrom="xs">From</Table.Th>
                  <Table.Th visibleFrom="sm">Signed in</Table.Th>
                  <Table.Th visibleFrom="md">Expires</Table.Th>
                  <ActionsHeader />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((web) => (
                  <Table.Tr key={web.id}>
                    <Table.Td>
                      <Text size="sm" title={web.user_agent}>
                        {describeAgent(web.user_agent)}
                      </Text>
                      <Text size="xs" c="dimmed" hiddenFrom="xs">
                        {web.source_ip}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="xs">{web.source_ip || "—"}</Table.Td>
                    <Table.Td visibleFrom="sm">{formatDateTime(web.created_at)}</Table.Td>
                    <Table.Td visibleFrom="md">{formatDateTime(web.expires_at)}</Table.Td>
                    <Table.Td ta="right">
                      {web.current ? (
                        <Badge variant="light">this browser</Badge>
                      ) : (
                        <RowButton
                          label={`Sign out session ${web.id}`}
                          color="red"
                          onClick={() => setEnding(web)}
                        >
                          Sign out
                        </RowButton>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ConfirmModal
            opened={ending !== null}
            onClose={() => setEnding(null)}
            title="Sign out this session?"
            message={`${describeAgent(ending?.user_agent ?? "")} from ${ending?.source_ip || "an unknown address"} must sign in again.`}
            confirmLabel="Sign out"
            onConfirm={() => end.mutateAsync(ending?.id ?? 0)}
          />
        </Stack>
      )}
    </QueryState>
  );
}
