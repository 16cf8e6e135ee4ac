import { Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A labelled value of a details page: the label small and dimmed above the value. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}
