import { Badge, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { ConfirmModal } from "@/components/confirm-modal";
import { type WebSession, useEndSession, useSessions } from "@/features/auth/api/account";
import { formatDateTime } from "@/lib/format";
import { QueryState } from "@/components/query-state";
import { ColumnsTable } from "@/components/columns-table";
import { RowButton } from "@/components/row-actions";

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
          <ColumnsTable
            label="Sessions"
            columns={[
              {
                key: "browser",
                header: "Browser",
                cell: (web) => (
                  <>
                    <Text size="sm" title={web.user_agent}>
                      {describeAgent(web.user_agent)}
                    </Text>
                    <Text size="xs" c="dimmed" hiddenFrom="xs">
                      {web.source_ip}
                    </Text>
                  </>
                ),
              },
              {
                key: "from",
                header: "From",
                visibleFrom: "xs",
                cell: (web) => web.source_ip || "—",
              },
              {
                key: "created",
                header: "Signed in",
                visibleFrom: "sm",
                cell: (web) => formatDateTime(web.created_at),
              },
              {
                key: "expires",
                header: "Expires",
                visibleFrom: "md",
                cell: (web) => formatDateTime(web.expires_at),
              },
              {
                key: "actions",
                td: { ta: "right" },
                cell: (web) =>
                  web.current ? (
                    <Badge variant="light">this browser</Badge>
                  ) : (
                    <RowButton
                      label={`Sign out session ${web.id}`}
                      color="red"
                      onClick={() => setEnding(web)}
                    >
                      Sign out
                    </RowButton>
                  ),
              },
            ]}
            rows={data}
            rowKey={(web) => web.id}
            compact
          />
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
