/** Tasks a plan has: those that would change and those whose outcome is unknown (each counted
 * once, as the server groups them). */
export function taskTotal(plan: { task_count: number; unknown_count: number }): number {
  return plan.task_count + plan.unknown_count;
}

/** The "more" button's label: how many the next page brings and how many are left, or null
 * when everything is shown. */
export function moreLabel(shown: number, total: number, page: number, what: string): string | null {
  const left = total - shown;
  if (left <= 0) return null;
  const next = Math.min(page, left);
  return `Show ${next} more ${next === 1 ? what : `${what}s`} (${left.toLocaleString()} left)`;
}

/** Tasks whose diffs are shown without a click: the first few (the unknowns come first). */
export const OPEN_AT_ONCE = 3;
