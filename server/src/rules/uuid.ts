/** The identifiers of members, links and reports: RFC 9562 UUIDs in their 8-4-4-4-12 hex form (`@rules/uuid`). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID, in either letter case (as people may paste one). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Whether `value` is a UUID as this app writes them, in lower case (the one spelling of an address). */
export function isLowerCaseUuid(value: string): boolean {
  return UUID.test(value) && value === value.toLowerCase();
}
