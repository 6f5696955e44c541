import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserConfig, RenderedHome } from '../http/web.js';
import { resolveDay } from '../verses/day.js';
import { DEFAULT_TRANSLATION } from '../verses/translation.js';
import type { Translation } from '../verses/translation.js';
import type { Verse } from '../verses/verse.types.js';

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

/** Longest a rendering may take; the page is then sent as the app shell (a rendering waits for no network). */
const RENDER_DEADLINE_MS = 5000;

function withDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`the home page took longer than ${RENDER_DEADLINE_MS} ms to render`));
    }, RENDER_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
  });
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
  const file = path.join(ssrDir, 'ssr.js');
  if (!existsSync(file)) return undefined;
  let entry: Promise<ServerEntry> | undefined;
  const load = (): Promise<ServerEntry> =>
    (entry ??= import(pathToFileURL(file).href).then((module: unknown) => {
      if (!isServerEntry(module)) throw new Error(`${file} has no renderHome()`);
      return module;
    }));

  let day = '';
  const rendered = new Map<Translation, Promise<RenderedHome>>();

  async function render(config: BrowserConfig, translation: Translation, now: Date): Promise<RenderedHome> {
    const [server, verse] = await Promise.all([
      load().catch((error: unknown) => {
        entry = undefined;
        throw error;
      }),
      verses.ofTheDay({ translation }, now),
    ]);
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
      const fresh = withDeadline(render(config, translation, now));
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
