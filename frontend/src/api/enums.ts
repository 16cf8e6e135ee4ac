/**
 * Every value of one of the API's enums (a union of `Schemas`), in the order written:
 * `valuesOf<Schemas["LaunchSetting"]>({ limit: true, … })`. One key a value, so the compiler
 * fails when the API adds a value the console does not list, or the list names one it lacks.
 */
export function valuesOf<T extends string>(values: Record<T, true>): T[] {
  return Object.keys(values) as T[];
}
