import type { BrowserConfig, RenderedHome } from '../http/web.js';
import { resolveDay } from '../verses/day.js';
import { DEFAULT_TRANSLATION } from '../verses/translation.js';
import type { Translation } from '../verses/translation.js';
import type { Verse } from '../verses/verse.types.js';
import { serverEntry, withRenderDeadline } from './server-entry.js';

/** What the web app's server entry (web/src/ssr.tsx, built as `ssr.js`) offers. */
interface ServerEntry {
  renderHome(input: {
    verse: { id: string; ref: string; text: string; translation: Translation };
    config: BrowserConfig;
  }): Promise<RenderedHome>;
}

function isServerEntry(value: unknown): value is ServerEntry {
  return typeof value === 'object' && value !== null && 'renderHome' in value && typeof value.renderHome === 'function';
}

/** Where the rendering reads the verse of the day: the verse service. */
export interface VerseOfTheDaySource {
  ofTheDay(
    request: { translation: Translation },
    now: Date,
  ): Promise<Pick<Verse, 'id' | 'ref' | 'text' | 'translation'>>;
}

/**
 * Renders the home page's content with the web app's own components (`ssr.js` in `ssrDir`) for a
 * visitor signed out, from today's verse as `verseOfTheDay` answers without a time zone (today in
 * UTC) in the default translation. The module brings React, so it is imported on the first request
 * for `/`, not at start. Each rendering is kept for its day and translation (the visitor's own are
 * the browser's business; the settings are the same for the life of the process); a new day drops
 * them. Undefined when the build has no server rendering.
 */
export function homePageRenderer(
  verses: VerseOfTheDaySource,
  ssrDir: string,
): ((config: BrowserConfig) => Promise<RenderedHome>) | undefined {
  const entry = serverEntry(ssrDir, (module) => {
    if (!isServerEntry(module)) throw new Error(`${ssrDir}/ssr.js has no renderHome()`);
    return module;
  });
  if (!entry) return undefined;
  const load: () => Promise<ServerEntry> = entry;

  let day = '';
  const rendered = new Map<Translation, Promise<RenderedHome>>();

  async function render(config: BrowserConfig, translation: Translation, now: Date): Promise<RenderedHome> {
    const [server, verse] = await Promise.all([load(), verses.ofTheDay({ translation }, now)]);
    const { id, ref, text } = verse;
    return server.renderHome({ verse: { id, ref, text, translation: verse.translation }, config });
  }

  return (config) => {
    const now = new Date();
    const today = resolveDay({}, now).date;
    if (today !== day) {
      rendered.clear();
      day = today;
    }
    const translation = DEFAULT_TRANSLATION;
    let page = rendered.get(translation);
    if (!page) {
      // The deadline starts once the entry is imported (see the profile page's renderer).
      const fresh = load().then(() => withRenderDeadline(render(config, translation, now), 'the home page'));
      // A failure is not kept: the next request tries again.
      fresh.catch(() => {
        if (rendered.get(translation) === fresh) rendered.delete(translation);
      });
      rendered.set(translation, fresh);
      page = fresh;
    }
    return page;
  };
}
