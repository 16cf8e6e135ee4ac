import { type ReactNode, useState } from "react";
import { applyServerErrors } from "@/lib/form-errors";

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

interface SendCallbacks {
  onSuccess: () => void;
  onError: (error: unknown) => void;
}

/**
 * A form that adds a user or a team (a member, a grant): the picker's state and errors, and the
 * error of the rest. `submit(send)` asks for a holder when none is picked, else calls `send`
 * with it (a mutation); on success the picker is cleared, a failure's user_id/team_id errors
 * show at the picker and the rest as `formError`, which `showError` also sets (for the form's
 * other actions).
 */
export function useHolderForm() {
  const [holder, setHolder] = useState<Holder | null>(null);
  const [holderError, setHolderError] = useState<ReactNode>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (send: (holder: Holder, callbacks: SendCallbacks) => void) => {
    setFormError(null);
    setHolderError(null);
    if (holder === null) {
      setHolderError("Pick a user or a team");
      return;
    }
    send(holder, {
      onSuccess: () => setHolder(null),
      onError: (error) => {
        // one picker stands for user_id and team_id
        const picker = {
          getValues: () => ({ user_id: null, team_id: null }),
          setFieldError: (_path: string, message: ReactNode) => setHolderError(message),
        };
        setFormError(applyServerErrors(picker, error));
      },
    });
  };
  const picker: HolderPickerProps = { value: holder, onChange: setHolder, error: holderError };
  return { picker, formError, showError: setFormError, submit };
}

/** A picker of one user (a team's new member), handed to features by src/app like the above. */
export interface UserPickerProps {
  value: number | null;
  onChange: (userId: number | null) => void;
  error?: ReactNode;
}

export type RenderUserPicker = (props: UserPickerProps) => ReactNode;
