/** The visitor's IANA time zone, so that "today's verse" is today where they are. */
export function visitorTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}
