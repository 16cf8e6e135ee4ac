import { Anchor, List, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { useHoldings } from "@/api/queries/project-options";
import { paths } from "@/lib/paths";
import {
  type GuidedSection,
  SECTION_OF,
  type Thing,
  countsFor,
  missingFirst,
} from "@/lib/setup-steps";

/** What each thing is, said in the step that asks for it. */
const WHAT: Record<Thing, string> = {
  key: "A key, if the git server or the hosts need a login (SSH key, or login and password)",
  repository: "A repository: where the playbooks are (git, or a directory on the server)",
  inventory: "An inventory: the hosts to run on",
  template: "A template: the playbook to run, with its repository and inventory",
};

/** Why the section needs them, said above the steps. */
const NEEDS: Record<GuidedSection, string> = {
  templates: "A template runs a playbook from a repository on the hosts of an inventory. First:",
  repositories:
    "A private git server needs a key first; a public URL or a server directory needs none.",
  inventories: "Paste the hosts as text, or read them from a file in a repository (none yet):",
  schedules: "A schedule launches a template; this project has none yet:",
  webhooks: "A webhook launches a template; this project has none yet:",
  workflows: "A workflow runs templates one after another; this project has none yet:",
};

/** The link that opens the create dialog of `thing` on its section's page. */
export const newHref = (projectId: number, thing: Thing) =>
  `${paths.project(projectId, SECTION_OF[thing])}?new=1`;

interface SetupGuideProps {
  projectId: number;
  section: GuidedSection;
  /** the empty list's sentence, "No templates yet." */
  empty: string;
  /** the section's own "New …" as the last step (templates: after what it needs) */
  own?: { label: string; href: string; hint?: string };
}

/**
 * An empty section's state: its sentence and, when what its thing needs is missing, the steps
 * to make it first, in order, each with a link to its create dialog.
 */
export function SetupGuide({ projectId, section, empty, own }: SetupGuideProps) {
  const holdings = useHoldings(projectId, countsFor(section));
  const steps = missingFirst(section, holdings);
  return (
    <Stack gap="xs" py="md" maw={720}>
      <Text c="dimmed">{empty}</Text>
      {steps.length > 0 && (
        <>
          <Text size="sm">{NEEDS[section]}</Text>
          <List type="ordered" size="sm" spacing={6} aria-label="What comes first">
            {steps.map((step) => (
              <List.Item key={step.thing}>
                {WHAT[step.thing]}:{" "}
                <Anchor component={Link} to={newHref(projectId, step.thing)}>
                  New {step.thing}
                </Anchor>
              </List.Item>
            ))}
            {own && (
              <List.Item>
                Then {own.hint ?? "this"}:{" "}
                <Anchor component={Link} to={own.href}>
                  {own.label}
                </Anchor>
              </List.Item>
            )}
          </List>
        </>
      )}
    </Stack>
  );
}
