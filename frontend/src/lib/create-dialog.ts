import type { UseFormReturnType } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { type ApplyOptions, useServerErrors } from "@/lib/form-errors";

/** The part of a create mutation (useMutation) a dialog uses. */
interface Creating<B, R> {
  mutate: (
    body: B,
    options: { onSuccess: (record: R) => void; onError: (error: unknown) => void },
  ) => void;
  isPending: boolean;
}

interface CreateDialogOptions<V, B, R> {
  /** the request's body out of the form's values */
  toBody: (values: V) => B;
  /** what the notification says was made: `Project “db” created` */
  created: (record: R) => string;
  onClose: () => void;
  /** the record, before the dialog closes (a form that asked for it selects it) */
  onCreated?: (record: R) => void;
  /** how a refusal's field errors find the form's fields (a key's kind: `unionTag`) */
  errorOptions?: (values: V) => ApplyOptions;
}

/**
 * A create dialog that stays mounted (FormModal `opened`): submitting sends the form's body,
 * then says what was made and closes; a refusal goes to the form (useServerErrors); closing
 * empties the form (no secret lingers) and its errors. Returns FormModal's part: its
 * `onClose`, `onSubmit`, `error` and `pending`.
 */
export function useCreateDialog<V extends object, B, R>(
  form: UseFormReturnType<V>,
  creating: Creating<B, R>,
  options: CreateDialogOptions<V, B, R>,
) {
  const serverErrors = useServerErrors(form);
  const close = () => {
    form.reset();
    serverErrors.clear();
    options.onClose();
  };
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    creating.mutate(options.toBody(values), {
      onSuccess: (record) => {
        notifications.show({ color: "green", message: options.created(record) });
        options.onCreated?.(record);
        close();
      },
      onError: (error) => serverErrors.show(error, options.errorOptions?.(values)),
    });
  });
  return {
    onClose: close,
    onSubmit: submit,
    error: serverErrors.message,
    pending: creating.isPending,
  };
}
