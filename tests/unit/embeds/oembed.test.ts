import { describe, expect, it } from 'vitest';
import { frameSize, oembedAnswer, pageUsernameOf, sizeLimit } from '../../../server/src/embeds/oembed.js';
import { pageEmbedSnippet, verseEmbedSnippet } from '../../../server/src/rules/embeds.js';

const SITE = 'https://lampstand.example';

describe('the page an oEmbed address names', () => {
  it('is a page of this site, with or without a trailing slash or a query', () => {
    expect(pageUsernameOf(`${SITE}/@grace`, SITE)).toBe('grace');
    expect(pageUsernameOf(`${SITE}/@grace/`, SITE)).toBe('grace');
    expect(pageUsernameOf(`${SITE}/@grace?ref=church#top`, SITE)).toBe('grace');
    expect(pageUsernameOf(`${SITE}/@john.doe`, SITE)).toBe('john.doe');
  });

  it('is none for another host, scheme or port, another path, or no address', () => {
    for (const address of [
      'https://elsewhere.example/@grace',
      'http://lampstand.example/@grace',
      'https://lampstand.example:8443/@grace',
      `${SITE}/grace`,
      `${SITE}/@grace/links`,
      `${SITE}/@`,
      `${SITE}/@%E0%A4%A`,
      'grace',
      '',
    ]) {
      expect(pageUsernameOf(address, SITE), address).toBeUndefined();
    }
  });
});

describe('size limits', () => {
  it('are positive whole numbers, or none', () => {
    expect(sizeLimit('300')).toBe(300);
    for (const value of [undefined, '', '0', '-5', '3.5', '1e3', 'wide', '9999999']) {
      expect(sizeLimit(value), String(value)).toBeUndefined();
    }
  });

  it('shrink the frame but never below its readable minimum', () => {
    expect(frameSize()).toEqual({ width: 360, height: 480 });
    expect(frameSize(1000)).toEqual({ width: 360, height: 480 });
    expect(frameSize(300, 250)).toEqual({ width: 300, height: 250 });
    expect(frameSize(50, 10)).toEqual({ width: 200, height: 200 });
    const page = { username: 'grace', name: 'Grace', photoUrl: null };
    const answer = oembedAnswer({ siteUrl: SITE, page, photoSize: 256, size: frameSize(300) });
    expect(answer).toMatchObject({ width: 300, height: 480 });
    expect(answer.html).toContain('width="300" height="480"');
  });
});

describe('the snippets', () => {
  it("escape a member's name in the frame's title", () => {
    const snippet = pageEmbedSnippet(SITE, { username: 'grace', name: 'Grace "<b>" & co' });
    expect(snippet).toContain('title="Grace &quot;&lt;b&gt;&quot; &amp; co on Lampstand"');
    expect(snippet).toContain(`src="${SITE}/embed/@grace"`);
  });

  it('name the theme and translation of the verse', () => {
    expect(verseEmbedSnippet(SITE, { theme: 'dark', translation: 'web' })).toContain(
      `src="${SITE}/embed/verse?theme=dark&amp;translation=web"`,
    );
  });
});
