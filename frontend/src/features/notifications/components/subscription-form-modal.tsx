import {
  Checkbox,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Text,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { useDestinations } from "@/features/notifications/api/destinations";
import { useTemplateOptions } from "@/api/queries/project-options";
import { useScheduleOptions } from "@/features/notifications/api/options";
import { useSaveSubscription } from "@/features/notifications/api/subscriptions";
import {
  EVENTS,
  type SubscriptionFormValues,
  toSubscriptionCreate,
  toSubscriptionUpdate,
  toSubscriptionValues,
} from "@/features/notifications/lib/events";
import { useServerErrors } from "@/lib/form-errors";

type Subscription = Schemas["SubscriptionRead"];
type Scope = Schemas["SubscriptionScope"];

const SCOPE_LABELS: Record<Scope, string> = {
  project: "Every run of the project",
  template: "A template's runs",
  schedule: "A schedule's runs",
};

interface SubscriptionFormModalProps {
  projectId: number;
  /** null: a new subscription */
  subscription: Subscription | null;
  /** the scopes a new one may have, the first chosen */
  scopes: Scope[];
  /** fixed by the page (template page, schedule page), else picked */
  templateId: number | null;
  scheduleId: number | null;
  onClose: () => void;
}

export function SubscriptionFormModal(props: SubscriptionFormModalProps) {
  const { projectId, subscription, scopes, templateId, scheduleId, onClose } = props;
  const phone = useMediaQuery("(max-width: 48em)");
  const save = useSaveSubscription(projectId);
  const destinations = useDestinations(projectId, 500, 0);
  const form = useForm<SubscriptionFormValues>({
    mode: "controlled",
    initialValues: toSubscriptionValues(
      subscription,
      scopes[0] ?? "project",
      templateId,
      scheduleId,
    ),
  });
  const serverErrors = useServerErrors(form);
  const scope = form.values.scope;
  const creating = subscription === null;
  // a template's subscriptions need template:write
  const templates = useTemplateOptions(
    projectId,
    ["write"],
    creating && scope === "template" && templateId === null,
  );
  const schedules = useScheduleOptions(
    projectId,
    templateId,
    creating && scope === "schedule" && scheduleId === null,
  );
  const longRunning = form.values.events.includes("long_running");
  const hostQuiet = form.values.events.includes("host_quiet");

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const onSuccess = () => {
      notifications.show({ color: "green", message: "Subscription saved" });
      onClose();
    };
    const onError = (error: Error) => serverErrors.show(error);
    if (subscription) {
      save.mutate(
        { subscriptionId: subscription.id, body: toSubscriptionUpdate(values) },
        { onSuccess, onError },
      );
    } else {
      save.mutate(
        { subscriptionId: null, body: toSubscriptionCreate(values) },
        { onSuccess, onError },
      );
    }
  });

  const target =
    subscription === null
      ? null
      : subscription.scope === "project"
        ? SCOPE_LABELS.project
        : subscription.scope === "template"
          ? `Runs of template “${subscription.template_name ?? "?"}”`
          : `Runs of schedule “${subscription.schedule_name ?? "?"}”`;

  return (
    <FormModal
      onClose={onClose}
      title={subscription ? "Edit subscription" : "New subscription"}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={subscription ? "Save" : "Subscribe"}
      pending={save.isPending}
    >
      {target !== null ? (
        <Text size="sm">{target}</Text>
      ) : (
        scopes.length > 1 && (
          <SegmentedControl
            aria-label="Which runs"
            data={scopes.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
            {...form.getInputProps("scope")}
            onChange={(value) => form.setFieldValue("scope", value as Scope)}
            orientation={phone ? "vertical" : "horizontal"}
          />
        )
      )}
      {creating && scope === "template" && templateId === null && (
        <Select
          label="Template"
          required
          searchable
          data={templates.data ?? []}
          {...form.getInputProps("template_id")}
          onChange={(value) => form.setFieldValue("template_id", value ?? "")}
        />
      )}
      {creating && scope === "schedule" && scheduleId === null && (
        <Select
          label="Schedule"
          required
          searchable
          data={schedules.data ?? []}
          nothingFoundMessage="No schedules"
          {...form.getInputProps("schedule_id")}
          onChange={(value) => form.setFieldValue("schedule_id", value ?? "")}
        />
      )}
      <Select
        label="Destination"
        required
        data={(destinations.data?.items ?? []).map((d) => ({
          value: String(d.id),
          label: `${d.name} (${d.kind})`,
        }))}
        nothingFoundMessage="No destinations: add one on the project's Notifications page"
        {...form.getInputProps("destination_id")}
        onChange={(value) => form.setFieldValue("destination_id", value ?? "")}
      />
      <Checkbox.Group label="Tell about" required {...form.getInputProps("events")}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
          {EVENTS.map((e) => (
            <Checkbox key={e.value} value={e.value} label={e.label} description={e.description} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      {longRunning && (
        <Group>
          <NumberInput
            label="Still running after (minutes)"
            required
            min={0.05}
            max={10080}
            decimalScale={2}
            w={220}
            {...form.getInputProps("long_running_minutes")}
          />
        </Group>
      )}
      {hostQuiet && (
        <Group>
          <NumberInput
            label="Host quiet for (minutes)"
            description="Empty: the instance's threshold, the one the run page flags quiet hosts at"
            placeholder="instance default"
            min={0.05}
            max={1440}
            decimalScale={2}
            w={320}
            {...form.getInputProps("host_quiet_minutes")}
          />
        </Group>
      )}
    </FormModal>
  );
}
