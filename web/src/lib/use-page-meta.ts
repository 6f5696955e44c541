import { useEffect } from 'react';

export interface PageMeta {
  title: string;
  description?: string;
  /** Open Graph type: `website` unless the page says otherwise (`profile`). */
  type?: string;
}

const SITE_DESCRIPTION = 'Lampstand: your page with a Bible verse for every day.';

/** The `<meta>` element for `key`, created in `<head>` when the server did not send one. */
function metaTag(attribute: 'name' | 'property', key: string): HTMLMetaElement {
  const existing = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (existing) return existing;
  const tag = document.createElement('meta');
  tag.setAttribute(attribute, key);
  document.head.append(tag);
  return tag;
}

/**
 * Keeps the document's title, description and Open Graph tags in step with the page shown, for
 * the tab, bookmarks and anything that reads the live document (the server sends the same tags
 * for `/@username` to crawlers).
 */
export function usePageMeta({ title, description = SITE_DESCRIPTION, type = 'website' }: PageMeta): void {
  useEffect(() => {
    document.title = title;
    metaTag('name', 'description').content = description;
    metaTag('property', 'og:title').content = title;
    metaTag('property', 'og:description').content = description;
    metaTag('property', 'og:type').content = type;
    const url = window.location.origin + window.location.pathname;
    metaTag('property', 'og:url').content = url;
    document.head.querySelector('link[rel="canonical"]')?.setAttribute('href', url);
  }, [title, description, type]);
}
