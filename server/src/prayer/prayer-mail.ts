import { escapeHtml } from '../http/html.js';
import type { MailMessage } from '../mail/mail.transport.js';

/** A plain mail in the house look: a heading, paragraphs, and the text version of the same. */
function simpleMail(to: string, subject: string, paragraphs: string[]): MailMessage {
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#f6f4ef;font-family:Georgia,'Times New Roman',serif;color:#2b2620">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
${paragraphs.map((paragraph) => `    <p style="white-space:pre-wrap;line-height:1.5">${escapeHtml(paragraph)}</p>`).join('\n')}
  </div>
</body>
</html>
`;
  return { to, subject, text: paragraphs.join('\n\n'), html };
}

/** Tells a member that requests arrived, without their words (the inbox is where they are read). */
export function prayerNoticeMail(input: { to: string; count: number; inboxUrl: string; daily: boolean }): MailMessage {
  const { count, inboxUrl } = input;
  const what = count === 1 ? 'a new prayer request' : `${String(count)} new prayer requests`;
  return {
    ...simpleMail(input.to, `You have ${what}`, [
      `Someone asked you to pray for them. You have ${what}${input.daily ? ' since yesterday' : ''}.`,
      `Read them in your inbox: ${inboxUrl}`,
      input.daily
        ? 'You get one mail a day about new requests. Change this in your prayer request settings.'
        : 'You get at most one mail an hour about new requests. Change this in your prayer request settings.',
    ]),
    link: inboxUrl,
  };
}

/** The member's reply, to the address the visitor left; the member's own address is not in it. */
export function prayerReplyMail(input: {
  to: string;
  memberName: string;
  message: string;
  request: string;
}): MailMessage {
  const letters = Array.from(input.request);
  const quoted = letters.length > 300 ? `${letters.slice(0, 300).join('')}…` : input.request;
  return simpleMail(input.to, `${input.memberName} replied to your prayer request`, [
    input.message,
    `— ${input.memberName}`,
    `You asked: “${quoted}”`,
    'This reply was sent through Lampstand. Replies to this mail do not reach them, and they never saw your address.',
  ]);
}
