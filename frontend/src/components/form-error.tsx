import { Alert } from "@mantine/core";

/** The part of a failed submit that belongs to no single field (see applyServerErrors). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {message}
    </Alert>
  );
}
