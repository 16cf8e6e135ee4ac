import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { usePageParam } from "@/hooks/use-page-param";
import { useProjects } from "@/features/projects/api/get-projects";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

type Project = Schemas["ProjectRead"];

const columns: Column<Project>[] = [
  {
    key: "name",
    header: "Name",
    cell: (project) => (
      <Anchor component={Link} to={paths.project(project.id)} fw={500}>
        {project.name}
      </Anchor>
    ),
  },
  {
    key: "description",
    header: "Description",
    visibleFrom: "sm",
    cell: (project) => (
      <Text size="sm" c="dimmed" lineClamp={2}>
        {project.description}
      </Text>
    ),
  },
  {
    key: "updated",
    header: "Updated",
    visibleFrom: "md",
    cell: (project) => <Text size="sm">{formatDateTime(project.updated_at)}</Text>,
  },
];

export function ProjectsTable({ canCreate }: { canCreate: boolean }) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const projects = useProjects(limit, offset);
  return (
    <PagedTable
      label="Projects"
      columns={columns}
      rowKey={(project) => project.id}
      data={projects.data}
      isPending={projects.isPending}
      error={projects.error}
      page={page}
      onPageChange={setPage}
      empty={
        canCreate
          ? "No projects yet. Create one, or ask a project owner to add you."
          : "You are not in any project yet. Ask a project owner to add you."
      }
    />
  );
}
