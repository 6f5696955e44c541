import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsentProvider } from '../../web/src/consent/ConsentProvider';
import type { ProfileView_ProfileFragment } from '../../web/src/ui/profile/profile-view.generated';
import { ProfileView } from '../../web/src/ui/profile/ProfileView';

afterEach(cleanup);

function profile(overrides: Partial<ProfileView_ProfileFragment> = {}): ProfileView_ProfileFragment {
  return {
    __typename: 'PublicProfile',
    username: 'user123ab',
    name: 'Dorcas',
    bio: '',
    photoUrl: null,
    links: [],
    plus: false,
    versePinned: false,
    translation: 'KJV',
    joined: '2025-03-14T10:00:00.000Z',
    appearance: { __typename: 'Appearance', theme: 'lightTheme', layout: 'row', button: 'normalButton' },
    verse: {
      __typename: 'Verse',
      id: 'Heb.3.4',
      ref: 'Hebrews 3:4',
      text: 'For every house is builded by some man; but he that built all things is God.',
      translation: 'KJV',
    },
    ...overrides,
  };
}

function renderProfile(data: ProfileView_ProfileFragment, consent: { showPreferences: () => void } | null = null) {
  return render(
    <MemoryRouter>
      <ConsentProvider consent={consent}>
        <ProfileView profile={data} />
      </ConsentProvider>
    </MemoryRouter>,
  );
}

describe('the profile view', () => {
  it("titles the verse of the day as today's, and a verse its owner pinned as theirs", () => {
    renderProfile(profile());
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Today’s verse');
    cleanup();
    renderProfile(profile({ plus: true, versePinned: true }));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('A verse I keep close');
  });

  it("shows the member's name, address, join month and verse", () => {
    renderProfile(profile());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dorcas');
    expect(screen.getByText('@user123ab')).toBeTruthy();
    expect(screen.getByText('Member since March 2025')).toBeTruthy();
    expect(screen.getByText(/builded by some man/)).toBeTruthy();
    expect(screen.getByText('Hebrews 3:4')).toBeTruthy();
  });

  it.each([
    ['darkTheme', 'column', 'outlineButton'],
    ['sunriseTheme', 'row', 'goldButton'],
    ['gardenTheme', 'column', 'roundedButton'],
  ] as const)('dresses the whole page in the %s theme, %s layout and %s buttons', (theme, layout, button) => {
    const { container } = renderProfile(profile({ appearance: { __typename: 'Appearance', theme, layout, button } }));
    const page = container.querySelector('.profile');
    expect(page?.classList.contains(`theme-${theme}`)).toBe(true);
    expect(page?.classList.contains(`layout-${layout}`)).toBe(true);
    expect(page?.classList.contains(`button-${button}`)).toBe(true);
    // The share buttons live inside the page, so the member's button style reaches them.
    for (const button of screen.getAllByRole('button')) expect(page?.contains(button)).toBe(true);
    expect(screen.getByRole('button', { name: 'QR code & image' })).toBeTruthy();
  });

  it('shows the Plus badge only to Plus members', () => {
    renderProfile(profile({ plus: false }));
    expect(screen.queryByText('member', { exact: false, selector: '.visually-hidden' })).toBeNull();
    cleanup();
    renderProfile(profile({ plus: true }));
    expect(screen.getByText(/Plus/).textContent).toBe('Plus member');
  });

  it("shows the member's photo, or their initial when they have none", () => {
    const photoUrl = 'https://lampstand.example/p/0f8fad5b-d9cb-469f-a165-70867728950e/AbCdEfGhIjKlMnOp.webp';
    const { container } = renderProfile(profile({ photoUrl }));
    const photo = container.querySelector('.profile-card img');
    expect(photo?.getAttribute('src')).toBe(photoUrl);
    expect(container.querySelector('.profile-card .monogram:not(img)')).toBeNull();
    cleanup();
    const initial = renderProfile(profile({ photoUrl: null }));
    expect(initial.container.querySelector('.profile-card img')).toBeNull();
    expect(initial.container.querySelector('.profile-card .monogram')?.textContent).toBe('D');
  });

  it('renders a name as text, never as markup', () => {
    const { container } = renderProfile(profile({ name: '<img src=x onerror=alert(1)>' }));
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('offers "Cookie settings" in the footer where the site asks for consent, and only there', async () => {
    const consent = { showPreferences: vi.fn() };
    renderProfile(profile(), consent);
    await userEvent.click(screen.getByRole('button', { name: 'Cookie settings' }));
    expect(consent.showPreferences).toHaveBeenCalledOnce();
    cleanup();
    renderProfile(profile());
    expect(screen.queryByRole('button', { name: 'Cookie settings' })).toBeNull();
  });
});

describe('a page with a bio and links', () => {
  it('shows the bio under the name, and each link as a button that goes through /l/<id>', () => {
    renderProfile(
      profile({
        bio: 'Seamstress in Joppa.\nFull of good works.',
        links: [
          {
            __typename: 'Link',
            id: 'a1',
            title: 'Sermons',
            url: 'https://www.youtube.com/@joppa',
            icon: 'youtube',
            highlighted: false,
          },
          {
            __typename: 'Link',
            id: 'b2',
            title: 'Write to me',
            url: 'mailto:dorcas@example.com',
            icon: 'email',
            highlighted: false,
          },
        ],
      }),
    );
    expect(screen.getByText(/Seamstress in Joppa\./).textContent).toBe('Seamstress in Joppa.\nFull of good works.');
    const links = screen.getByRole('navigation', { name: 'Links' });
    const buttons = Array.from(links.querySelectorAll('a'));
    // Each says where it goes, and still goes there through /l/<id>, which counts the click.
    expect(
      buttons.map((button) => [
        button.querySelector('.plink-title')?.textContent,
        button.querySelector('.plink-host')?.textContent,
        button.getAttribute('href'),
      ]),
    ).toEqual([
      ['Sermons', 'youtube.com', '/l/a1'],
      ['Write to me', 'dorcas@example.com', '/l/b2'],
    ]);
    expect(screen.getByRole('link', { name: 'Sermons youtube.com' })).toBeTruthy();
    expect(links.querySelector('.plink-icon')?.getAttribute('style')).toContain('/icons/youtube.svg');
  });

  it('shows no links section when there are none', () => {
    renderProfile(profile());
    expect(screen.queryByRole('navigation', { name: 'Links' })).toBeNull();
  });
});
