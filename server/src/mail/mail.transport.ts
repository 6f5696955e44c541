import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { MailOutboxRecord } from './outbox.entity.js';

/** One message, in text and HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link the message carries, logged by the development outbox. */
  link?: string;
  /** More header fields, e.g. `List-Unsubscribe` on mail sent on a member's request. */
  headers?: Readonly<Record<string, string>>;
}

/** Sends mail: over SMTP when SMTP_URL is set, otherwise into the development outbox. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** How long one SMTP delivery may take before the request that caused it fails. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Builds the mailer. Without SMTP_URL every message is stored in the `mail_outbox` table and its
 * link is logged, so that a developer can confirm an address or reset a password locally.
 */
export function createMailer(config: Config, dataSource: DataSource, log: FastifyBaseLogger): Mailer {
  const { smtpUrl, from } = config.mail;
  if (smtpUrl !== undefined) {
    // nodemailer is loaded for the first message rather than at start (start-up time, quality.md P9).
    let opening: Promise<Transporter> | undefined;
    const smtp = (): Promise<Transporter> => {
      opening ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        }),
      );
      return opening;
    };
    return {
      async send(message) {
        const transport = await smtp();
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
        });
      },
      close: () => {
        // A transport whose module failed to load has nothing to close (its sends failed already).
        void opening?.then(
          (transport) => {
            transport.close();
          },
          () => undefined,
        );
      },
    };
  }

  const outbox = dataSource.getRepository(MailOutboxRecord);
  return {
    async send(message) {
      await outbox.insert({
        id: randomUUID(),
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        link: message.link ?? null,
        createdAt: new Date(),
      });
      log.info({ to: message.to, subject: message.subject, link: message.link }, 'mail kept in the development outbox');
    },
    close: () => undefined,
  };
}
