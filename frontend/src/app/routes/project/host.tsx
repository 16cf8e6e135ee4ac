import { Alert, Anchor, Stack } from "@mantine/core";
import { Link, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { HostPage } from "@/features/hosts/components/host-page";
import { HostDriftSection } from "@/features/plans/components/drift";
import { paths } from "@/lib/paths";

export function Component() {
  const { project } = useProjectContext();
  const host = useParams().host;
  if (!host) return <Alert color="yellow" title="Host not found" />;
  return (
    <Stack key={host}>
      <Anchor component={Link} to={paths.project(project.id, "hosts")} size="sm">
        ← All hosts
      </Anchor>
      <HostPage projectId={project.id} host={host} />
      <HostDriftSection projectId={project.id} host={host} />
    </Stack>
  );
}
