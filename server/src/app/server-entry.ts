import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Longest a server rendering may take, once the entry is imported; the page is then sent without it
 * (a rendering waits for no network).
 */
const RENDER_DEADLINE_MS = 5000;

/** `work`, or a failure naming `what` once it has taken longer than the rendering deadline. */
export function withRenderDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} took longer than ${RENDER_DEADLINE_MS} ms to render`));
    }, RENDER_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * The web app's server entry (`ssr.js` in `ssrDir`, built from web/src/ssr.tsx), imported on first
 * use, not at start: it brings React. `check` tells that it offers what the caller needs. Undefined
 * when the build has no server rendering; a failed import is tried again on the next use.
 */
export function serverEntry<T>(ssrDir: string, check: (module: unknown) => T): (() => Promise<T>) | undefined {
  const file = path.join(ssrDir, 'ssr.js');
  if (!existsSync(file)) return undefined;
  let entry: Promise<T> | undefined;
  return () =>
    (entry ??= import(pathToFileURL(file).href).then(check)).catch((error: unknown) => {
      entry = undefined;
      throw error;
    });
}
