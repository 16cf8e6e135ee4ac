import { SegmentedControl, type SegmentedControlProps, Text } from "@mantine/core";
import { useId } from "react";

interface LabelledSegmentsProps extends SegmentedControlProps {
  label: string;
}

/** A choice of a few values as segments, under a visible label that names it for screen readers
 * too (a SegmentedControl is a radio group: a `<label for>` cannot name it). */
export function LabelledSegments({ label, ...segments }: LabelledSegmentsProps) {
  const id = useId();
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id={id}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={id} {...segments} />
    </div>
  );
}
