/** Recovery codes as the text a reader copies or downloads to keep them somewhere safe. */
export function recoveryCodesText(codes: readonly string[], username: string, site: string) {
  return [
    `Steward recovery codes for ${username} at ${site}`,
    "Each code signs you in once, in place of your authenticator's code.",
    "",
    ...codes,
    "",
  ].join("\n");
}

/** The name of the downloaded file: one per user and server, no characters a disk refuses. */
export function recoveryCodesFilename(username: string, site: string) {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  return `steward-recovery-codes-${safe(username) || "user"}-${safe(site) || "server"}.txt`;
}
