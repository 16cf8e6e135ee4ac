import type { Schemas } from "@/api/client";

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

/** The hosts a scope reaches now, as the template read says (`launch_hosts_now`):
 * "db1, db2 (and 3 more), and hosts matching ~web.*", or null when it says nothing. */
export function reachedLabel(now: Schemas["HostsReached"] | null | undefined): string | null {
  if (!now) return null;
  const parts: string[] = [];
  if (now.names.length > 0) {
    const more = now.count - now.names.length;
    parts.push(now.names.join(", ") + (more > 0 ? ` (and ${more} more)` : ""));
  } else if (now.unresolved.length === 0) {
    parts.push("no host of the inventory yet");
  }
  if (now.unresolved.length > 0) {
    parts.push(`${parts.length > 0 ? "and " : ""}hosts matching ${now.unresolved.join(", ")}`);
  }
  return parts.join(", ");
}
