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

interface LabelBadgesProps {
  labels: readonly string[];
  /** makes each badge a button that picks its label (a list's filter) */
  onPick?: (label: string) => void;
}

/** Labels shown as badges (nothing when there are none). */
export function LabelBadges({ labels, onPick }: LabelBadgesProps) {
  if (labels.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap">
      {labels.map((label) =>
        onPick ? (
          <Badge
            key={label}
            component="button"
            type="button"
            size="sm"
            variant="light"
            color="gray"
            tt="none"
            style={{ cursor: "pointer" }}
            aria-label={`Filter by label ${label}`}
            onClick={() => onPick(label)}
          >
            {label}
          </Badge>
        ) : (
          <Badge key={label} size="sm" variant="light" color="gray" tt="none">
            {label}
          </Badge>
        ),
      )}
    </Group>
  );
}
