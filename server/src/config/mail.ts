import { z } from 'zod';
import type { SectionEnv, Shared } from './fields.js';
import { bool } from './fields.js';

/** The relay account and verse mail go through. */
export const mailEnv = {
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_ALLOW_LOCAL: bool.default(false),
  MAIL_FROM: z.string().min(3).default('Lampstand <no-reply@lampstand.local>'),
};

export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
}

/** Hosts of the mail catchers used in development (Mailpit and its elders), which deliver nothing. */
const MAIL_CATCHER_HOST = /(^|[.-])(mailpit|mailhog|mailcatcher|maildev)([.-]|$)/i;

/**
 * Whether an SMTP URL points at a mail catcher rather than a relay: a loopback or unspecified
 * address, a catcher's usual host name, or Mailpit's and MailHog's port 1025.
 */
export function isLocalMailCatcher(smtpUrl: string): boolean {
  const { hostname, port } = new URL(smtpUrl);
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.startsWith('127.') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::';
  return loopback || MAIL_CATCHER_HOST.test(host) || port === '1025';
}

export function mailSettings(env: SectionEnv<typeof mailEnv>, shared: Shared): MailSettings {
  // The development outbox logs every link it keeps: live sign-in tokens must not reach production
  // logs. Hosted identity mails accounts itself, but the morning verse is ours to send.
  if (shared.nodeEnv === 'production') {
    if (!env.SMTP_URL) {
      shared.problems.push(
        shared.hosted
          ? 'SMTP_URL: required in production (the morning verse email is sent through it, not by Supabase)'
          : 'SMTP_URL: required in production (without it account mail goes to the development outbox)',
      );
    } else if (!env.SMTP_ALLOW_LOCAL && isLocalMailCatcher(env.SMTP_URL)) {
      shared.problems.push(
        `SMTP_URL: ${new URL(env.SMTP_URL).host} looks like a local mail catcher (Mailpit, loopback), which delivers nothing; set a real relay, or SMTP_ALLOW_LOCAL=true if this is deliberate`,
      );
    }
  }
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM };
}
