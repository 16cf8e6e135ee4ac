import { Group, NumberInput, SegmentedControl, Select } from "@mantine/core";
import { useState } from "react";
import { useTeams, useUserSearch } from "@/features/auth/api/get-directory";
import { UserPicker } from "@/features/auth/components/user-picker";
import type { HolderPickerProps } from "@/lib/holders";

/**
 * A user (searched by name) or a team. Who may not list users (403) types a user ID instead.
 */
export function HolderPicker({ value, onChange, error }: HolderPickerProps) {
  const [kind, setKind] = useState<"user" | "team">(value?.team_id ? "team" : "user");
  // the picker's first search (no name yet): a 403 says the caller may not list users
  const users = useUserSearch("", kind === "user");
  const teams = useTeams(kind === "team");

  const choose = (next: "user" | "team") => {
    setKind(next);
    onChange(null);
  };

  let picker;
  if (kind === "user" && users.isError) {
    picker = (
      <NumberInput
        label="User ID"
        description={users.error.message}
        allowDecimal={false}
        min={1}
        w={200}
        error={error}
        value={value?.user_id ?? ""}
        onChange={(id) => onChange(typeof id === "number" ? { user_id: id } : null)}
      />
    );
  } else if (kind === "user") {
    picker = (
      <UserPicker
        error={error}
        value={value?.user_id ?? null}
        onChange={(id) => onChange(id ? { user_id: id } : null)}
      />
    );
  } else {
    picker = (
      <Select
        label="Team"
        placeholder={teams.isError ? teams.error.message : "Pick a team"}
        searchable
        data={(teams.data ?? []).map((team) => ({ value: String(team.id), label: team.name }))}
        nothingFoundMessage="No teams"
        miw={220}
        error={error}
        value={value?.team_id ? String(value.team_id) : null}
        onChange={(id) => onChange(id ? { team_id: Number(id) } : null)}
      />
    );
  }
  return (
    <Group align="flex-end" wrap="wrap">
      <SegmentedControl
        aria-label="User or team"
        data={[
          { value: "user", label: "User" },
          { value: "team", label: "Team" },
        ]}
        value={kind}
        onChange={(next) => choose(next === "team" ? "team" : "user")}
      />
      {picker}
    </Group>
  );
}
