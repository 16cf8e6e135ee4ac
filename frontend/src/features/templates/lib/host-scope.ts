/** A grant's host scope as the console shows and edits it. */

/** "dev, test", or the words for no scope. */
export function hostsLabel(hosts: readonly string[] | null | undefined): string {
  return hosts && hosts.length > 0 ? hosts.join(", ") : "every host";
}

/** The entries typed, trimmed, empty and repeated ones left out (the server checks each). */
export function hostEntries(typed: readonly string[]): string[] {
  const entries: string[] = [];
  for (const value of typed) {
    const entry = value.trim();
    if (entry && !entries.includes(entry)) entries.push(entry);
  }
  return entries;
}
