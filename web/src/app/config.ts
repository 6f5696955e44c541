/** Settings the server puts into every page (see server/src/http/web.ts), read once at start. */
export interface AppConfig {
  /** The tag manager container to load after analytics consent; null when none is configured. */
  gtmContainerId: string | null;
}

const NONE: AppConfig = { gtmContainerId: null };

/** The page's `#lampstand-config`; the development server and a missing or broken tag give no settings. */
export function readAppConfig(doc: Document = document): AppConfig {
  const text = doc.getElementById('lampstand-config')?.textContent;
  if (!text) return NONE;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('gtmContainerId' in value)) return NONE;
    const id = value.gtmContainerId;
    return { gtmContainerId: typeof id === 'string' && /^GTM-[A-Z0-9]+$/.test(id) ? id : null };
  } catch {
    return NONE;
  }
}
