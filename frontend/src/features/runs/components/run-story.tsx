import { Alert, Anchor, Stack, Text } from "@mantine/core";
import type { Run } from "@/features/runs/api/get-run";
import { plural } from "@/lib/format";

interface RunStoryProps {
  run: Run;
  /** show this line (0-based) of the whole output */
  onShowLine: (line: number) => void;
}

/** How a finished run went, at the top of its page: the first failure (task, host, its message
 * wrapped, a link to its line), who canceled it, and the hosts that did not finish. */
export function RunStory({ run, onShowLine }: RunStoryProps) {
  const story = run.story;
  if (!story) return null;
  const failure = story.first_failure;
  const unfinished = story.unfinished_host_count;
  const canceled = run.status === "canceled";
  if (!failure && !unfinished && !canceled) return null;
  const more = unfinished - story.unfinished_hosts.length;
  return (
    <Stack gap="xs">
      {(canceled || unfinished > 0) && (
        <section aria-label="How it ended">
          <Alert color="gray" p="xs">
            <Text size="sm">
              {canceled ? `Canceled by ${story.canceled_by ?? "the system"}. ` : ""}
              {unfinished > 0
                ? `${plural(unfinished, "host")} did not finish: ${story.unfinished_hosts.join(", ")}${
                    more > 0 ? ` and ${more} more` : ""
                  }.`
                : "Every host finished."}
            </Text>
          </Alert>
        </section>
      )}
      {failure && (
        <section aria-label="First failure">
          <Alert
            color="red"
            p="xs"
            title={
              <Text size="sm" fw={700} style={{ overflowWrap: "anywhere" }}>
                {failure.unreachable ? "Unreachable" : "Failed"}: task “{failure.task}”
                {failure.host ? ` on ${failure.host}` : " (installing the requirements)"}
              </Text>
            }
          >
            <Stack gap={4}>
              {failure.message && (
                <Text
                  size="sm"
                  ff="monospace"
                  style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}
                  lineClamp={8}
                >
                  {failure.message}
                </Text>
              )}
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => onShowLine(failure.line)}
              >
                Show it in the log (line {failure.line + 1})
              </Anchor>
            </Stack>
          </Alert>
        </section>
      )}
    </Stack>
  );
}
