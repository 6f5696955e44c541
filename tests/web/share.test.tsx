import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShareButton } from '../../web/src/ui/profile/ShareButton';

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
