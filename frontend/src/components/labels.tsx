import { Badge, Group, TagsInput, type TagsInputProps } from "@mantine/core";
import { LABELS_MAX, labelNames } from "@/lib/labels";

type LabelsInputProps = Omit<TagsInputProps, "onChange" | "maxTags"> & {
  onChange?: (labels: string[]) => void;
};

/** A labels field (a template's, or those a freeze window freezes): what is typed becomes
 * slugs (`lib/labels`), at most the server's number. */
export function LabelsInput({ onChange, ...props }: LabelsInputProps) {
  return (
    <TagsInput
      splitChars={[",", " "]}
      clearable
      {...props}
      maxTags={LABELS_MAX}
      onChange={(values) => onChange?.(labelNames(values))}
    />
  );
}

/** Labels shown as badges (nothing when there are none). */
export function LabelBadges({ labels }: { labels: readonly string[] }) {
  if (labels.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap">
      {labels.map((label) => (
        <Badge key={label} size="sm" variant="light" color="gray" tt="none">
          {label}
        </Badge>
      ))}
    </Group>
  );
}
