/** Settings the server puts into every page (see server/src/http/web.ts), read once at start. */
export interface AppConfig {
  /** The tag manager container to load after analytics consent; null when none is configured. */
  gtmContainerId: string | null;
  /**
   * Whether Plus is on sale here. Without it the app offers no upgrade. Unknown (the development
   * server serves no settings) counts as on sale, so the Plus screens can be worked on.
   */
  billing: boolean;
  /** Where members ask for help (a lost phone): the server's SUPPORT_EMAIL; null when none is set. */
  supportEmail: string | null;
}

const NONE: AppConfig = { gtmContainerId: null, billing: true, supportEmail: null };

/** The page's `#lampstand-config`; the development server and a missing or broken tag give no settings. */
export function readAppConfig(doc: Document = document): AppConfig {
  const text = doc.getElementById('lampstand-config')?.textContent;
  if (!text) return NONE;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('gtmContainerId' in value)) return NONE;
    const id = value.gtmContainerId;
    return {
      gtmContainerId: typeof id === 'string' && /^GTM-[A-Z0-9]+$/.test(id) ? id : null,
      billing: !('billing' in value) || value.billing !== false,
      supportEmail:
        'supportEmail' in value &&
        typeof value.supportEmail === 'string' &&
        /^[^\s@<>"]+@[^\s@<>"]+$/.test(value.supportEmail)
          ? value.supportEmail
          : null,
    };
  } catch {
    return NONE;
  }
}

let current: AppConfig | undefined;

/** The page's settings, read on first use. */
export function appConfig(): AppConfig {
  current ??= readAppConfig();
  return current;
}
