import { Stack, Title } from "@mantine/core";
import { useNavigate, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DetailsPage } from "@/components/details-page";
import { SubscriptionsTable } from "@/features/notifications/components/subscriptions-table";
import { useSchedule } from "@/features/schedules/api/get-schedule";
import { ScheduleDetails } from "@/features/schedules/components/schedule-details";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

function ScheduleNotifications({
  projectId,
  scheduleId,
}: {
  projectId: number;
  scheduleId: number;
}) {
  const { project } = useProjectContext();
  const schedule = useSchedule(projectId, scheduleId);
  if (!schedule.data || !can(project.permissions, PROJECT_ACTIONS.resourceView)) return null;
  return (
    <Stack gap="xs">
      <Title order={4}>Notifications</Title>
      <SubscriptionsTable
        projectId={projectId}
        templateId={schedule.data.template_id}
        scheduleId={scheduleId}
        canWriteProject={false}
        canWriteTemplate={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
      />
    </Stack>
  );
}

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const back = paths.project(project.id, "schedules");
  return (
    <DetailsPage
      id={idParam(useParams().scheduleId)}
      notFound="Schedule not found"
      back={back}
      backLabel="All schedules"
    >
      {(scheduleId) => (
        <>
          <ScheduleDetails
            projectId={project.id}
            scheduleId={scheduleId}
            canWrite={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
            onDeleted={() => void navigate(back)}
          />
          <ScheduleNotifications projectId={project.id} scheduleId={scheduleId} />
        </>
      )}
    </DetailsPage>
  );
}
