import { Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { useUserSearch } from "@/features/auth/api/get-directory";
import type { UserPickerProps } from "@/lib/holders";

/** An active user, searched by name. */
export function UserPicker({ value, onChange, error }: UserPickerProps) {
  const [search, setSearch] = useState("");
  const [q] = useDebouncedValue(search, 250);
  const users = useUserSearch(q, true);
  const data = (users.data ?? []).map((user) => ({
    value: String(user.id),
    label: user.display_name ? `${user.username} (${user.display_name})` : user.username,
  }));
  return (
    <Select
      label="User"
      placeholder="Search by name"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      data={data}
      nothingFoundMessage={users.isFetching ? "Searching…" : "No such user"}
      miw={220}
      error={error ?? (users.isError ? users.error.message : undefined)}
      value={value ? String(value) : null}
      onChange={(id) => onChange(id ? Number(id) : null)}
    />
  );
}
