import { escapeHtml } from '../http/html.js';
import type { MailMessage } from './mail.transport.js';

const PRODUCT = 'Lampstand';

interface Layout {
  to: string;
  subject: string;
  heading: string;
  intro: string;
  action: string;
  link: string;
  otp: string;
  footer: string;
}

function render(layout: Layout): MailMessage {
  const text = [
    layout.heading,
    '',
    layout.intro,
    '',
    `${layout.action}: ${layout.link}`,
    '',
    `Or enter this code: ${layout.otp}`,
    '',
    layout.footer,
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const link = escapeHtml(layout.link);
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#f6f4ef;font-family:Georgia,'Times New Roman',serif;color:#2b2620">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
    <p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#8a5a00">${PRODUCT}</p>
    <h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(layout.heading)}</h1>
    <p style="margin:0 0 24px;line-height:1.5">${escapeHtml(layout.intro)}</p>
    <p style="margin:0 0 24px"><a href="${link}" style="display:inline-block;background:#8a5a00;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(layout.action)}</a></p>
    <p style="margin:0 0 24px;line-height:1.5">Or enter this code: <strong style="letter-spacing:2px">${escapeHtml(layout.otp)}</strong></p>
    <p style="margin:0;font-size:13px;color:#6b635a;line-height:1.5">${escapeHtml(layout.footer)}</p>
  </div>
</body>
</html>
`;
  return { to: layout.to, subject: layout.subject, text, html, link: layout.link };
}

/** What every account message needs: where it goes, its link and its one-time code. */
export interface AccountMailInput {
  to: string;
  link: string;
  otp: string;
}

/** "Confirm your email address", sent after sign-up when confirmation is on. */
export function confirmationMail(input: AccountMailInput): MailMessage {
  return render({
    ...input,
    subject: `Confirm your ${PRODUCT} account`,
    heading: `Welcome to ${PRODUCT}`,
    intro: 'Please confirm your email address to finish creating your account.',
    action: 'Confirm your email',
    footer: 'If you did not sign up, you can ignore this message.',
  });
}

/** "Reset your password", sent by a password reset request. */
export function recoveryMail(input: AccountMailInput): MailMessage {
  return render({
    ...input,
    subject: `Reset your ${PRODUCT} password`,
    heading: 'Reset your password',
    intro: 'Someone asked to reset the password of your account. Follow the link to choose a new one.',
    action: 'Reset your password',
    footer: 'If you did not ask for this, you can ignore this message: your password stays the same.',
  });
}

/** "Confirm your new email address", sent to the new address (and the current one when secure change is on). */
export function emailChangeMail(input: AccountMailInput & { newEmail: string }): MailMessage {
  return render({
    ...input,
    subject: `Confirm your new ${PRODUCT} email address`,
    heading: 'Confirm your email change',
    intro: `Please confirm that your account's email address becomes ${input.newEmail}.`,
    action: 'Confirm the change',
    footer: 'If you did not ask for this, do not follow the link and consider changing your password.',
  });
}
