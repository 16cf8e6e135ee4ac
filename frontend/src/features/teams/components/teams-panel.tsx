import { Stack, Text } from "@mantine/core";
import { useState } from "react";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions, RowButton } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { type Team, useDeleteTeam, useTeamsPage } from "@/features/teams/api/teams";
import { TeamFormModal } from "@/features/teams/components/team-form-modal";
import { TeamMembersModal } from "@/features/teams/components/team-members-modal";
import { usePageParam } from "@/hooks/use-page-param";
import type { RenderUserPicker } from "@/lib/holders";
import { formatDateTime } from "@/lib/format";

type Open = { kind: "new" } | { kind: "edit" | "members" | "delete"; team: Team } | null;

/** Admins: teams, which hold project roles and template grants for all their members. */
export function TeamsPanel({ renderUserPicker }: { renderUserPicker: RenderUserPicker }) {
  const { page, setPage, limit, offset } = usePageParam(50);
  const teams = useTeamsPage(limit, offset);
  const remove = useDeleteTeam();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  const columns: Column<Team>[] = [
    {
      key: "name",
      header: "Team",
      cell: (team) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {team.name}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {team.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: "created",
      header: "Created",
      visibleFrom: "sm",
      cell: (team) => <Text size="sm">{formatDateTime(team.created_at)}</Text>,
    },
    {
      key: "actions",
      header: "",
      cell: (team) => (
        <RowActions
          name={team.name}
          onEdit={() => setOpen({ kind: "edit", team })}
          onDelete={() => setOpen({ kind: "delete", team })}
        >
          <RowButton
            label={`Members of ${team.name}`}
            variant="light"
            onClick={() => setOpen({ kind: "members", team })}
          >
            Members
          </RowButton>
        </RowActions>
      ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="A team's project roles and template grants apply to each of its members."
        actionLabel="New team"
        onAction={() => setOpen({ kind: "new" })}
      />
      <PagedTable
        label="Teams"
        columns={columns}
        rowKey={(team) => team.id}
        data={teams.data}
        isPending={teams.isPending}
        error={teams.error}
        page={page}
        onPageChange={setPage}
        empty="No teams yet."
      />
      {open?.kind === "new" && <TeamFormModal onClose={close} />}
      {open?.kind === "edit" && <TeamFormModal team={open.team} onClose={close} />}
      {open?.kind === "members" && (
        <TeamMembersModal team={open.team} onClose={close} renderUserPicker={renderUserPicker} />
      )}
      <ConfirmDeleteModal
        opened={open?.kind === "delete"}
        onClose={close}
        subject={`team “${open?.kind === "delete" ? open.team.name : ""}”`}
        consequence="Its project roles and template grants end with it; its members lose what they had through it."
        onConfirm={() => remove.mutateAsync(open?.kind === "delete" ? open.team.id : 0)}
      />
    </Stack>
  );
}
