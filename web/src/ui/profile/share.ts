/** What happened when the visitor asked to share a page. */
export type ShareResult = 'shared' | 'copied' | 'cancelled' | 'failed';

/** True where the browser offers its own share sheet (most phones), false where we copy the link. */
export function canUseShareSheet(): boolean {
  return typeof navigator.share === 'function';
}

/**
 * Shares `url` with the browser's share sheet when there is one, otherwise copies it. A dismissed
 * share sheet is no failure; a share sheet that fails for another reason falls back to copying.
 */
export async function shareLink(data: { url: string; title: string }): Promise<ShareResult> {
  if (canUseShareSheet()) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(data.url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
