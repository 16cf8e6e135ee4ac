/** The directory groups typed one a line: trimmed, blank lines dropped (the server trims too,
 * and refuses a blank group). */
export function directoryGroupsFromText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}
