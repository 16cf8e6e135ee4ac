import { Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { useTemplateFreezes } from "@/api/queries/freezes";
import { FreezeAlert } from "@/components/freeze-alert";
import { overridesFreeze, withFreezeReason } from "@/features/templates/lib/launch-freeze";

/** The freeze a launch of the template meets now, and the override's reason typed so far: of
 * the launch dialog (`plan`: of a plan, which cannot override) and the relaunch dialog. */
export function useLaunchFreeze(projectId: number, templateId: number, plan = false) {
  const freezes = useTemplateFreezes(projectId, templateId).data;
  const [reason, setReason] = useState("");
  const overriding = overridesFreeze(freezes, plan);
  return {
    freezes,
    overriding,
    reason,
    setReason,
    /** the body, with the reason when the caller overrides the freeze */
    withReason: <B extends object>(body: B) => withFreezeReason(body, overriding, reason),
  };
}

export type LaunchFreeze = ReturnType<typeof useLaunchFreeze>;

interface LaunchFreezeAlertProps {
  freeze: LaunchFreeze;
  /** what the dialog does: "launch", "relaunch" */
  verb: string;
  /** the server refused the last submit (a blank reason is then marked) */
  refused: boolean;
}

/** A freeze holding now (the reason to type when the caller may override it, else that the
 * server will refuse) or coming; nothing outside freezes. */
export function LaunchFreezeAlert({ freeze, verb, refused }: LaunchFreezeAlertProps) {
  const { freezes, overriding, reason, setReason } = freeze;
  if (!freezes?.active) {
    return freezes?.coming ? <FreezeAlert standing={freezes.coming} active={false} /> : null;
  }
  return (
    <FreezeAlert standing={freezes.active} active>
      {overriding ? (
        <Textarea
          mt="sm"
          required
          label="Override reason"
          description={`You may ${verb} during the freeze: say why (audited and notified)`}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={refused && !reason.trim() ? "A reason is required" : undefined}
          autosize
          minRows={2}
        />
      ) : (
        <Text size="sm" mt="xs">
          The server will refuse the {verb}: overriding a freeze needs the freeze:override
          permission.
        </Text>
      )}
    </FreezeAlert>
  );
}
