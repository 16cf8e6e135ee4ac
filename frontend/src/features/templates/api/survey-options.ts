import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import type { SourcedOptions } from "@/components/survey-answers";
import { hasSources, sourceAnswers } from "@/lib/survey-options";

type Template = Schemas["TemplateRead"];

/** The options of the template's sourced questions, read by the server with the answers the
 * sources name (asked again when one of those changes: cascading). */
export function useSurveyOptions(
  projectId: number,
  template: Template,
  answers: Record<string, unknown>,
  inventoryId?: number | null,
) {
  // a typed answer a source names is sent once typing pauses, not at every key
  // (as JSON: a string compares by value, so a render alone does not restart the wait)
  const [named] = useDebouncedValue(JSON.stringify(sourceAnswers(template.survey, answers)), 300, {
    leading: true,
  });
  const survey = JSON.parse(named) as Record<string, unknown>;
  return useQuery({
    queryKey: [
      "projects",
      projectId,
      "templates",
      template.id,
      "survey-options",
      survey,
      inventoryId ?? null,
    ],
    enabled: hasSources(template.survey),
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/templates/{template_id}/survey/options", {
          params: { path: { project_id: projectId, template_id: template.id } },
          body: { survey, inventory_id: inventoryId ?? null },
        }),
      ),
  });
}

/** Each sourced question's options for a launch form (the survey answers' `sourced`): the
 * server's answer, or why it failed. */
export function useSourcedOptions(
  projectId: number,
  template: Template,
  answers: Record<string, unknown>,
  inventoryId?: number | null,
): Record<string, SourcedOptions> {
  const options = useSurveyOptions(projectId, template, answers, inventoryId);
  const questions = options.data?.questions;
  const found: Record<string, SourcedOptions> = {};
  for (const q of template.survey) {
    if (!q.source) continue;
    const read = questions?.find((each) => each.variable === q.variable);
    found[q.variable] = {
      choices: read?.choices ?? [],
      error: read ? (read.error ?? null) : options.error ? options.error.message : null,
      pending: options.isFetching,
    };
  }
  return found;
}
