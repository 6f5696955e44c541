/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON object a server rendering left in the page's `<script type="application/json" id=…>`,
 * or null when there is none or it is damaged.
 */
export function readJsonTag(id: string, doc: Document = document): Record<string, unknown> | null {
  const text = doc.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
