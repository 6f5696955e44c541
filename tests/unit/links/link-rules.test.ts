import { describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal.js';
import { iconFor } from '../../../server/src/links/link-icons.js';
import { cleanLinkTitle, normalizeLinkUrl } from '../../../server/src/links/link-rules.js';

describe('link addresses', () => {
  it.each([
    ['https://Example.ORG/Path?q=1#top', 'https://example.org/Path?q=1#top'],
    ['  http://example.org  ', 'http://example.org/'],
    ['example.org/visit', 'https://example.org/visit'],
    ['www.example.org:8443/x', 'https://www.example.org:8443/x'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://example.org/a b', 'https://example.org/a%20b'],
    ['MAILTO:grace@example.com', 'mailto:grace@example.com'],
    ['tel:+47 22 33 44 55', 'tel:+47 22 33 44 55'],
    ['tel:0123456789', 'tel:0123456789'],
    ['TEL:911', 'tel:911'],
  ])('keeps %s as %s', (typed, stored) => {
    expect(normalizeLinkUrl(typed, 'input.url')).toBe(stored);
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'file:///etc/passwd',
    'ftp://example.org/',
    'https://user:pass@example.org/',
    'https://localhost/',
    'mailto:',
    '',
    '   ',
    'http://',
  ])('refuses %j with BAD_USER_INPUT on the field', (typed) => {
    expect(refusal(() => normalizeLinkUrl(typed, 'input.url'))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.url',
    });
  });

  it('refuses an address longer than 2,048 characters once normalised, and keeps one at the limit', () => {
    const base = 'https://example.org/';
    expect(normalizeLinkUrl(base + 'a'.repeat(2048 - base.length), 'u')).toHaveLength(2048);
    // Each space becomes %20: 700 typed characters, 2,100 stored.
    expect(refusal(() => normalizeLinkUrl(base + ' x'.repeat(700), 'u'))).toMatchObject({ field: 'u' });
  });
});

describe('link titles', () => {
  it('are trimmed with inner white space made single, up to 80 characters (code points)', () => {
    expect(cleanLinkTitle('  Sunday\t\n service  ', 't')).toBe('Sunday service');
    expect(cleanLinkTitle('✝'.repeat(80), 't')).toHaveLength(80);
    expect(refusal(() => cleanLinkTitle('✝'.repeat(81), 't'))).toMatchObject({ code: 'BAD_USER_INPUT', field: 't' });
    expect(refusal(() => cleanLinkTitle(' \u00a0 ', 't'))).toMatchObject({ code: 'BAD_USER_INPUT', field: 't' });
  });
});

describe('link icons', () => {
  it.each([
    ['https://www.youtube.com/@church', 'youtube'],
    ['https://youtu.be/abc', 'youtube'],
    ['https://music.youtube.com/x', 'youtube'],
    ['https://instagram.com/grace', 'instagram'],
    ['https://m.facebook.com/grace', 'facebook'],
    ['https://www.tiktok.com/@grace', 'tiktok'],
    ['https://twitter.com/grace', 'x'],
    ['https://x.com/grace', 'x'],
    ['https://open.spotify.com/show/1', 'spotify'],
    ['https://podcasts.apple.com/us/podcast/1', 'applepodcasts'],
    ['https://wa.me/4712345678', 'whatsapp'],
    ['mailto:grace@example.com', 'email'],
    ['tel:+4712345678', 'phone'],
    ['https://apple.com/', 'link'],
    ['https://notyoutube.com/', 'link'],
    ['https://youtube.com.example.org/', 'link'],
  ])('%s shows %s', (url, icon) => {
    expect(iconFor(url)).toBe(icon);
  });
});
