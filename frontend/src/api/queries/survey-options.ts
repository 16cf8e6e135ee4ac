import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import {
  hasSources,
  type SourcedOptions,
  sourceAnswers,
  sourcedOptionsOf,
} from "@/lib/survey-options";

type Template = Schemas["TemplateRead"];

const NO_QUESTIONS: Template["survey"] = [];

/** The options of the template's sourced questions, read by the server with the answers the
 * sources name (asked again when one of those changes: cascading). No template (a form that
 * has not picked one yet, or launches a workflow): nothing is asked. */
export function useSurveyOptions(
  projectId: number,
  template: Template | null,
  answers: Record<string, unknown>,
  inventoryId?: number | null,
) {
  const questions = template?.survey ?? NO_QUESTIONS;
  // a typed answer a source names is sent once typing pauses, not at every key
  // (as JSON: a string compares by value, so a render alone does not restart the wait)
  const [named] = useDebouncedValue(JSON.stringify(sourceAnswers(questions, answers)), 300, {
    leading: true,
  });
  const survey = JSON.parse(named) as Record<string, unknown>;
  const templateId = template?.id ?? 0;
  return useQuery({
    queryKey: [
      "projects",
      projectId,
      "templates",
      templateId,
      "survey-options",
      survey,
      inventoryId ?? null,
    ],
    enabled: hasSources(questions),
    // the options shown stay while other answers are asked about, not past another template
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[3] === templateId ? keepPreviousData(previous) : undefined,
    queryFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/templates/{template_id}/survey/options", {
          params: { path: { project_id: projectId, template_id: templateId } },
          body: { survey, inventory_id: inventoryId ?? null },
        }),
      ),
  });
}

/** Each sourced question's options for a form's survey answers (SurveyAnswers' `sourced`): the
 * server's answer, or why it failed. Of a launch, a relaunch, a schedule, a workflow node. */
export function useSourcedOptions(
  projectId: number,
  template: Template | null,
  answers: Record<string, unknown>,
  inventoryId?: number | null,
): Record<string, SourcedOptions> {
  const options = useSurveyOptions(projectId, template, answers, inventoryId);
  return sourcedOptionsOf(
    template?.survey ?? NO_QUESTIONS,
    options.data?.questions,
    options.error ? options.error.message : null,
    options.isFetching,
  );
}
