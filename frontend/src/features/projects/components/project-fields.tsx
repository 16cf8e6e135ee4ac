import { NumberInput, Stack } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { NameDescriptionFields } from "@/components/name-description-fields";

/** What the project forms edit; `""` is an empty number field, sent as null. */
export interface ProjectFormValues {
  name: string;
  description: string;
  max_parallel_runs: number | "";
}

export function toProjectBody(values: ProjectFormValues) {
  const { max_parallel_runs, ...rest } = values;
  return { ...rest, max_parallel_runs: max_parallel_runs === "" ? null : max_parallel_runs };
}

export function ProjectFields({ form }: { form: UseFormReturnType<ProjectFormValues> }) {
  return (
    <Stack>
      <NameDescriptionFields form={form} />
      <NumberInput
        label="Parallel runs"
        description="How many runs of this project may execute at once; empty uses the server default."
        allowDecimal={false}
        min={1}
        key={form.key("max_parallel_runs")}
        {...form.getInputProps("max_parallel_runs")}
      />
    </Stack>
  );
}
