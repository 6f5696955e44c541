/**
 * Where a link goes, in a few words for under its title: the site's host (without `www.`), the
 * address of a `mailto:` link or the number of a `tel:` one; null for an address that does not parse.
 * The button itself still goes through `/l/<id>`, which counts the click.
 */
export function linkDestination(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
    return parsed.hostname.replace(/^www\./, '') || null;
  }
  if (parsed.protocol === 'mailto:' || parsed.protocol === 'tel:') {
    const target = decodeURIComponent(parsed.pathname.split(',')[0] ?? '');
    return target || null;
  }
  return null;
}
