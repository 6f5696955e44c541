// B6: whatever a member stores as name, bio or link title, the public page shows it as text and
// never as HTML: fuzzed text full of markup creates no element the page does not make itself.
import { cleanup, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsentProvider } from '../../web/src/consent/ConsentProvider';
import type { ProfileView_ProfileFragment } from '../../web/src/ui/profile/profile-view.generated';
import { ProfileView } from '../../web/src/ui/profile/ProfileView';
import { anyText } from '../support/fuzz';

afterEach(cleanup);

const MARKUP = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)></svg>',
  '"><iframe src=javascript:alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<style>*{display:none}</style>',
  '&lt;b&gt;bold&lt;/b&gt;',
  '<!--',
  ']]><![CDATA[',
  '{{constructor.constructor("alert(1)")()}}',
];

/** Text with markup somewhere in it, never empty after trimming (the server's rule for names). */
const withMarkup = fc
  .tuple(anyText(20), fc.constantFrom(...MARKUP), anyText(20))
  .map(([before, markup, after]) => `${before}${markup}${after}`);

type Link = ProfileView_ProfileFragment['links'][number];

function profile(name: string, bio: string, titles: readonly string[]): ProfileView_ProfileFragment {
  return {
    __typename: 'PublicProfile',
    username: 'user123ab',
    name,
    bio,
    photoUrl: null,
    links: titles.map((title, index): Link => ({
      __typename: 'Link',
      id: `l${index}`,
      title,
      url: 'https://example.com/',
      icon: 'link',
      highlighted: false,
    })),
    plus: false,
    versePinned: false,
    translation: 'KJV',
    joined: '2025-03-14T10:00:00.000Z',
    appearance: { __typename: 'Appearance', theme: 'lightTheme', layout: 'row', button: 'normalButton' },
    verse: { __typename: 'Verse', id: 'Heb.3.4', ref: 'Hebrews 3:4', text: 'For every house.', translation: 'KJV' },
  };
}

/** Every element the page renders, as tag names with their attribute names, in document order. */
function elements(root: HTMLElement): string[] {
  return Array.from(root.querySelectorAll('*')).map(
    (element) => `${element.tagName} ${element.getAttributeNames().sort().join(',')}`,
  );
}

function renderProfile(data: ProfileView_ProfileFragment): HTMLElement {
  return render(
    <MemoryRouter>
      <ConsentProvider consent={null}>
        <ProfileView profile={data} />
      </ConsentProvider>
    </MemoryRouter>,
  ).container;
}

describe('the public page and fuzzed text (B6)', () => {
  it('shows names, bios and link titles with markup as that very text, and makes no element of it', () => {
    fc.assert(
      fc.property(withMarkup, withMarkup, fc.array(withMarkup, { minLength: 1, maxLength: 3 }), (name, bio, titles) => {
        // The page as it is with harmless text in the same places: the elements it makes itself.
        const own = elements(
          renderProfile(
            profile(
              'Dorcas',
              'A bio.',
              titles.map(() => 'A link'),
            ),
          ),
        );
        cleanup();
        const page = renderProfile(profile(name, bio, titles));
        expect(elements(page)).toEqual(own);
        expect(page.querySelector('script, img, iframe, style, svg[onload], [onerror], [onload]')).toBeNull();
        expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(name);
        expect(page.querySelector('.profile-bio')?.textContent).toBe(bio);
        const buttons = screen.getByRole('navigation', { name: 'Links' }).querySelectorAll('a');
        expect(Array.from(buttons, (button) => button.querySelector('.plink-title')?.textContent)).toEqual(titles);
        cleanup();
      }),
      { numRuns: 40 },
    );
  });
});
