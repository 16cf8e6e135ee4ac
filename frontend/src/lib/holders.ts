import type { ReactNode } from "react";

/** Who holds a project role or a template grant: a user or a team (the API's HolderRef). */
export type Holder =
  { user_id: number; team_id?: undefined } | { team_id: number; user_id?: undefined };

export interface HolderPickerProps {
  value: Holder | null;
  onChange: (holder: Holder | null) => void;
  error?: ReactNode;
}

/**
 * Renders the user/team picker. The directory lives in one feature and members and grants in
 * others, so src/app hands the picker to them as this function.
 */
export type RenderHolderPicker = (props: HolderPickerProps) => ReactNode;
