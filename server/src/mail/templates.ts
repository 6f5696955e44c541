import { escapeHtml } from '../http/html.js';
import type { MailMessage } from './mail.transport.js';

const PRODUCT = 'Lampstand';

interface Layout {
  to: string;
  subject: string;
  heading: string;
  intro: string;
  /** The button and its link; a message with only a code has neither. */
  action?: string;
  link?: string;
  otp: string;
  footer: string;
}

function render(layout: Layout): MailMessage {
  const text = [
    layout.heading,
    '',
    layout.intro,
    '',
    ...(layout.link === undefined
      ? [`Your code: ${layout.otp}`]
      : [`${layout.action ?? 'Open'}: ${layout.link}`, '', `Or enter this code: ${layout.otp}`]),
    '',
    layout.footer,
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const button =
    layout.link === undefined
      ? ''
      : `<p style="margin:0 0 24px"><a href="${escapeHtml(layout.link)}" style="display:inline-block;background:#8a5a00;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(layout.action ?? 'Open')}</a></p>
    `;
  const codeLabel = layout.link === undefined ? 'Your code' : 'Or enter this code';
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#f6f4ef;font-family:Georgia,'Times New Roman',serif;color:#2b2620">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
    <p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#8a5a00">${PRODUCT}</p>
    <h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(layout.heading)}</h1>
    <p style="margin:0 0 24px;line-height:1.5">${escapeHtml(layout.intro)}</p>
    ${button}<p style="margin:0 0 24px;line-height:1.5">${codeLabel}: <strong style="letter-spacing:2px">${escapeHtml(layout.otp)}</strong></p>
    <p style="margin:0;font-size:13px;color:#6b635a;line-height:1.5">${escapeHtml(layout.footer)}</p>
  </div>
</body>
</html>
`;
  return {
    to: layout.to,
    subject: layout.subject,
    text,
    html,
    ...(layout.link !== undefined && { link: layout.link }),
  };
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

/** "Your sign-in link", sent by `POST /otp` (a magic link and a 6-digit code). */
export function magicLinkMail(input: AccountMailInput): MailMessage {
  return render({
    ...input,
    subject: `Your ${PRODUCT} sign-in link`,
    heading: `Sign in to ${PRODUCT}`,
    intro: 'Follow the link to sign in. It works once, for a limited time.',
    action: 'Sign in',
    footer: 'If you did not ask for this, you can ignore this message: nobody can sign in without it.',
  });
}

/** "You have been invited", sent by an admin's invitation: the link signs the invitee in to choose a password. */
export function inviteMail(input: AccountMailInput): MailMessage {
  return render({
    ...input,
    subject: `You are invited to ${PRODUCT}`,
    heading: `You are invited to ${PRODUCT}`,
    intro: 'Follow the link to accept the invitation and choose your password.',
    action: 'Accept the invitation',
    footer: 'If you did not expect this, you can ignore this message.',
  });
}

/** "Confirm it is you", the code a password change needs when secure password change is on. */
export function reauthenticationMail(input: { to: string; otp: string }): MailMessage {
  return render({
    ...input,
    subject: `Your ${PRODUCT} confirmation code`,
    heading: 'Confirm it is you',
    intro: 'Enter this code to confirm the change to your account.',
    footer: 'If you did not ask for this, someone may be using your account: change your password.',
  });
}
