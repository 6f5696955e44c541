import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { homePageRenderer } from '../../server/src/app/home-page.js';
import type { VerseOfTheDaySource } from '../../server/src/app/home-page.js';

/** What the stand-in for the web app's server entry records, shared through `globalThis`. */
interface Renderings {
  imports: number;
  verses: string[];
  failNext: boolean;
}

const renderings = (): Renderings =>
  ((globalThis as { homeRenderings?: Renderings }).homeRenderings ??= { imports: 0, verses: [], failNext: false });

/** A stand-in for web/src/ssr.tsx's build: it renders the verse it is given, and fails when told to. */
const SERVER_ENTRY = `
const renderings = (globalThis.homeRenderings ??= { imports: 0, verses: [], failNext: false });
renderings.imports += 1;
export async function renderHome({ verse }) {
  if (renderings.failNext) {
    renderings.failNext = false;
    throw new Error('the rendering failed on purpose');
  }
  renderings.verses.push(verse.id);
  return { html: '<p>' + verse.text + '</p>', state: { verse: verse.id } };
}
`;

const folders: string[] = [];

/** A folder holding the stand-in as `ssr.js`, as the build leaves it in web/dist-ssr/. */
function serverBuild(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'lampstand-ssr-'));
  folders.push(folder);
  // A new file each time: a module is evaluated once per address.
  writeFileSync(path.join(folder, 'ssr.js'), SERVER_ENTRY);
  return folder;
}

/** The verse service's answer without a database: the day's date as the verse. */
const verses: VerseOfTheDaySource = {
  ofTheDay: (request, now) =>
    Promise.resolve({
      id: `day-${now.toISOString().slice(0, 10)}`,
      ref: 'A reference',
      text: 'A verse',
      translation: request.translation,
    }),
};

const CONFIG = { gtmContainerId: null, billing: false, supportEmail: null };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  Object.assign(renderings(), { imports: 0, verses: [], failNext: false });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("the server's rendering of the home page", () => {
  it('is not offered without a server build', () => {
    expect(homePageRenderer(verses, path.join(tmpdir(), 'lampstand-no-such-build'))).toBeUndefined();
  });

  it('loads the web app’s module on the first request, not before', async () => {
    const render = homePageRenderer(verses, serverBuild());
    expect(render).toBeDefined();
    expect(renderings().imports).toBe(0);
    await render?.(CONFIG);
    expect(renderings().imports).toBe(1);
  });

  it('keeps a rendering for its day, and renders again when the day turns in UTC', async () => {
    vi.setSystemTime(new Date('2026-11-26T23:59:00Z'));
    const render = homePageRenderer(verses, serverBuild());
    const first = await Promise.all([render?.(CONFIG), render?.(CONFIG)]);
    expect(first[0]?.html).toBe('<p>A verse</p>');
    expect(await render?.(CONFIG)).toBe(first[0]);
    expect(renderings().verses).toEqual(['day-2026-11-26']);

    vi.setSystemTime(new Date('2026-11-27T00:00:01Z'));
    expect((await render?.(CONFIG))?.state).toEqual({ verse: 'day-2026-11-27' });
    expect(renderings().verses).toEqual(['day-2026-11-26', 'day-2026-11-27']);
    expect(renderings().imports).toBe(1);
  });

  it('keeps no failure: the next request renders again', async () => {
    const render = homePageRenderer(verses, serverBuild());
    renderings().failNext = true;
    await expect(render?.(CONFIG)).rejects.toThrow('the rendering failed on purpose');
    expect((await render?.(CONFIG))?.html).toBe('<p>A verse</p>');
  });
});
