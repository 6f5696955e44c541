import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../http/html.js';
import { UNSUBSCRIBE_PATH } from './verse-mail.message.js';
import type { VerseMailService } from './verse-mail.service.js';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${escapeHtml(title)} · Lampstand</title>
    <style>body{margin:0;font-family:system-ui,sans-serif;background:#f7f3ea;color:#1c2233;line-height:1.5}main{max-width:36rem;margin:0 auto;padding:3rem 1.25rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:0;background:#1f2a44;color:#fff;cursor:pointer}a{color:#1f2a44}</style>
  </head>
  <body>
    <main>
      <h1>${escapeHtml(title)}</h1>
      ${body}
      <p><a href="/">Lampstand</a></p>
    </main>
  </body>
</html>
`;
}

function readToken(query: unknown): string {
  const value = (query as { token?: unknown } | undefined)?.token;
  return typeof value === 'string' ? value : '';
}

/**
 * The unsubscribe link of the morning mail, usable without signing in: a POST (the mail client's
 * one-click, RFC 8058, or the button on the GET page) stops the mail. A GET only asks, since link
 * scanners open every link in a mail.
 */
export function registerVerseMailRoutes(app: FastifyInstance, mail: VerseMailService): void {
  void app.register((scope, _options, done) => {
    // One-click unsubscribe posts a form; its fields say nothing the token does not.
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, _body, done) => {
        done(null, undefined);
      },
    );
    scope.get(UNSUBSCRIBE_PATH, (request, reply) => {
      const token = readToken(request.query);
      return reply
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Stop the verse by mail?',
            `<p>You will get no more morning verses. You can turn them on again in your settings.</p>
      <form method="post" action="${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}">
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit">Stop these mails</button>
      </form>`,
          ),
        );
    });
    scope.post(UNSUBSCRIBE_PATH, async (request, reply) => {
      const done = await mail.unsubscribeByToken(readToken(request.query));
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      if (!done) {
        return reply
          .code(404)
          .send(page('This link is not known', '<p>Sign in and change the mail in your settings instead.</p>'));
      }
      return page('You will get no more verses by mail', '<p>You can turn them on again in your settings.</p>');
    });
    done();
  });
}
