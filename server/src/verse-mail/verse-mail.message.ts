import { escapeHtml } from '../http/html.js';
import type { MailMessage } from '../mail/mail.transport.js';
import { Translation, translationNames } from '../verses/translation.js';
import type { Verse } from '../verses/verse.types.js';

/** Where a mail's one-click unsubscribe goes (RFC 8058: POST; a GET shows a confirmation page). */
export const UNSUBSCRIBE_PATH = '/verse-mail/unsubscribe';

function longDate(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** The morning mail: the day's verse, a link to its page, and a one-click unsubscribe. */
export function verseMailMessage(input: {
  to: string;
  day: string;
  verse: Verse;
  token: string;
  publicUrl: string;
}): MailMessage {
  const { verse, day, publicUrl } = input;
  const unsubscribe = `${publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(input.token)}`;
  const page = `${publicUrl}/verse/${day}${verse.translation === Translation.KJV ? '' : `?translation=${verse.translation}`}`;
  const source = `${verse.ref} (${translationNames[verse.translation]})`;
  const text = [
    `Your verse for ${longDate(day)}`,
    '',
    verse.text,
    `— ${source}`,
    '',
    `Read it online: ${page}`,
    '',
    `You get this because you asked for the verse of the day by mail. Stop these mails: ${unsubscribe}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#f6f4ef;font-family:Georgia,'Times New Roman',serif;color:#2b2620">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
    <p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#8a5a00">Lampstand</p>
    <p style="margin:0 0 8px;font-size:14px;color:#6b6256">Your verse for ${escapeHtml(longDate(day))}</p>
    <blockquote style="margin:0 0 16px;font-size:22px;line-height:1.5">${escapeHtml(verse.text)}</blockquote>
    <p style="margin:0 0 24px;font-weight:bold">${escapeHtml(source)}</p>
    <p style="margin:0 0 24px"><a href="${escapeHtml(page)}" style="color:#8a5a00">Read it online</a></p>
    <p style="margin:0;font-size:13px;color:#6b6256">You get this because you asked for the verse of the day by mail. <a href="${escapeHtml(unsubscribe)}" style="color:#6b6256">Stop these mails</a></p>
  </div>
</body>
</html>
`;
  return {
    to: input.to,
    subject: `Your verse for ${longDate(day)}: ${verse.ref}`,
    text,
    html,
    link: page,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
