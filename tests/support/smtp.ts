import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message received by the test SMTP server, its body decoded from quoted-printable. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The header block as sent, folded lines unfolded (RFC 5322); never quoted-printable decoded. */
  headers: string;
  body: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export interface SmtpListener {
  url: string;
  messages: ReceivedMail[];
  /** The next message to `to` (waits for it, a minute at most: mail is slow to come on a busy machine). */
  nextMessage(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(value: string): string {
  return value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Starts an SMTP server on a free loopback port; point SMTP_URL at `url`. While `refuse()` answers
 * true, messages are refused with a temporary failure (451), as a busy mail server does.
 */
export async function startSmtpListener(options: { refuse?: () => boolean } = {}): Promise<SmtpListener> {
  const messages: ReceivedMail[] = [];
  const consumed = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.refuse?.()) {
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject,
          headers: (raw.split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' '),
          body: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async nextMessage(to, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((message) => !consumed.has(message) && message.to.includes(to));
        if (found) {
          consumed.add(found);
          return found;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * The link, its token and the 6-digit code of a received message. Links are either Supabase
 * Auth's `/verify?token=…` (`pkce_…` for a PKCE flow) or, for recovery, the page link
 * `…?token_hash=…&type=recovery`.
 */
export function mailTokens(mail: ReceivedMail): { link: string; tokenHash: string; otp: string } {
  const link =
    /(https?:\/\/\S+\/verify\?token=(?:pkce_)?[0-9a-f]+&type=[a-z_]+&redirect_to=[^\s"<]*)/.exec(mail.body)?.[1] ??
    /(https?:\/\/[^\s"<]+\?token_hash=[0-9a-f]+&type=[a-z_]+)/.exec(mail.body)?.[1];
  const url = link ? new URL(link.replace(/&amp;/g, '&')) : null;
  const tokenHash = url?.searchParams.get('token') ?? url?.searchParams.get('token_hash') ?? null;
  const otp = /code: (\d{6})/.exec(mail.body)?.[1];
  if (!link || !tokenHash || !otp) throw new Error(`no link or code in the mail "${mail.subject}"`);
  return { link, tokenHash, otp };
}
