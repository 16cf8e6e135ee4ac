import { Select, type SelectProps } from "@mantine/core";
import { useMemo } from "react";
import { browserZone, timeZones } from "@/features/schedules/lib/zones";

/** A searchable IANA zone picker; the viewer's own zone is marked. */
export function TimeZoneSelect(props: Omit<SelectProps, "data"> & { value: string }) {
  const { value } = props;
  const data = useMemo(() => {
    const own = browserZone();
    return timeZones(value).map((zone) => ({
      value: zone,
      label: zone === own ? `${zone} (your zone)` : zone,
    }));
  }, [value]);
  return (
    <Select
      searchable
      allowDeselect={false}
      limit={100}
      nothingFoundMessage="No such zone"
      {...props}
      data={data}
    />
  );
}
