import { Alert, Anchor, Stack, Text, Title } from "@mantine/core";
import { Link, Outlet, useLocation, useNavigate, useParams } from "react-router";
import type { ProjectContext } from "@/app/routes/project/context";
import { PROJECT_SECTIONS } from "@/app/routes/project/sections";
import { useProject } from "@/features/projects/api/get-project";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { can } from "@/lib/permissions";
import { OverflowTabs } from "@/components/overflow-tabs";
import { QueryState } from "@/components/query-state";

function ProjectPage({ projectId }: { projectId: number }) {
  const project = useProject(projectId);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const section = PROJECT_SECTIONS.find((s) => pathname.endsWith(`/${s.path}`))?.path ?? null;

  return (
    <QueryState
      query={project}
      loading="Loading project"
      notFound="Project not found"
      notFoundText="It does not exist, or you are not a member."
      back={
        <Anchor component={Link} to={paths.projects()}>
          Back to projects
        </Anchor>
      }
    >
      {(p) => {
        const context: ProjectContext = { project: p };
        const permissions = p.permissions;
        const tabs = PROJECT_SECTIONS.filter(
          (s) => !("requires" in s) || can(permissions, s.requires),
        ).map((s) => ({ value: s.path, label: s.label }));
        return (
          <Stack>
            <div>
              {/* a long name wraps on a phone, even one without spaces */}
              <Title order={2} style={{ overflowWrap: "anywhere" }}>
                {p.name}
              </Title>
              {p.description && (
                <Text c="dimmed" size="sm" lineClamp={2}>
                  {p.description}
                </Text>
              )}
            </div>
            <OverflowTabs
              label="Project sections"
              tabs={tabs}
              value={section}
              onChange={(next) => void navigate(paths.project(projectId, next))}
            />
            <Outlet context={context} />
          </Stack>
        );
      }}
    </QueryState>
  );
}

export function Component() {
  const projectId = idParam(useParams().projectId);
  if (projectId === null) {
    return <Alert color="yellow" title="Project not found" />;
  }
  // key: a different project starts from a clean page (forms, tabs)
  return <ProjectPage key={projectId} projectId={projectId} />;
}
