import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShareButton } from '../../web/src/ui/profile/ShareButton';
import { ShareDialog } from '../../web/src/ui/profile/ShareDialog';

const url = 'https://lampstand.example/@user123ab';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function browserWith(
  share: ((data: ShareData) => Promise<void>) | undefined,
  writeText: (text: string) => Promise<void>,
) {
  vi.stubGlobal('navigator', { userAgent: navigator.userAgent, share, clipboard: { writeText } });
}

describe('the share button', () => {
  it('copies the link and says so where there is no share sheet', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    browserWith(undefined, writeText);
    render(<ShareButton url={url} title="Dorcas" />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect((await screen.findByRole('status')).textContent).toBe('Link copied');
  });

  it('opens the share sheet where there is one', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.resolve());
    browserWith(share, writeText);
    render(<ShareButton url={url} title="Dorcas" />);
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ url, title: 'Dorcas' });
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says nothing when the visitor closes the share sheet', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    browserWith(() => Promise.reject(new DOMException('closed', 'AbortError')), writeText);
    render(<ShareButton url={url} title="Dorcas" />);
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('shows the link to copy by hand when the clipboard refuses', async () => {
    browserWith(undefined, () => Promise.reject(new Error('denied')));
    render(<ShareButton url={url} title="Dorcas" />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect((await screen.findByRole('status')).textContent).toBe(`Copy this link: ${url}`);
  });
});

describe("the page's QR code and image dialog", () => {
  it('offers the verse image in the translation the page shows', () => {
    render(<ShareDialog username="user123ab" url={url} title="Dorcas" translation="WEB" onClose={() => undefined} />);
    const image = screen.getByRole('img', { name: /Today’s verse on a card, in the World English Bible/ });
    expect(image.getAttribute('src')).toMatch(/^\/share\/verse-of-the-day\/\d{4}-\d{2}-\d{2}\.png\?translation=WEB$/);
    expect(screen.getByRole('link', { name: 'Download image' }).getAttribute('href')).toBe(image.getAttribute('src'));
  });

  it('keeps the plain address for the King James Version', () => {
    render(<ShareDialog username="user123ab" url={url} title="Dorcas" translation="KJV" onClose={() => undefined} />);
    const image = screen.getByRole('img', { name: /in the King James Version/ });
    expect(image.getAttribute('src')).toMatch(/^\/share\/verse-of-the-day\/\d{4}-\d{2}-\d{2}\.png$/);
  });
});
