import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';

/**
 * The HTML of `element` once every part has loaded (the server's renderings, web/src/ssr.tsx). A part
 * that failed would reach the page as its loading placeholder, so any error fails the whole
 * rendering: the server then sends the page without it.
 */
export async function renderHtml(element: ReactNode, what: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(element, {
    onError: (error) => {
      errors.push(error);
    },
  });
  const html = await new Response(prelude).text();
  if (errors.length > 0) throw new AggregateError(errors, `${what} failed to render`);
  return html;
}
