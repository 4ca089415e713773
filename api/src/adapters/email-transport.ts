import nodemailer from 'nodemailer';

/** One message as the outbox hands it to a transport. */
export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The same on every attempt of a row, so a receiver can tell a repeat. */
  messageId: string;
}

/**
 * Product decisions §12: email is a port. The built-in outbox keeps every message in the database, where
 * the mailbox page (development), `npm run billing -- emails` and `GET /internal/emails` read them:
 * handing a message over is recording that it was. SMTP sends it to a mail server.
 */
export interface EmailTransport {
  readonly kind: 'outbox' | 'smtp';
  deliver(message: OutgoingEmail): Promise<void>;
  close(): Promise<void>;
}

export const outboxTransport: EmailTransport = {
  kind: 'outbox',
  deliver: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/** Every attempt gives up after this long; the worker retries later with a backoff. */
const SMTP_TIMEOUT_MS = 10_000;

export function smtpTransport(url: string): EmailTransport {
  const transporter = nodemailer.createTransport(url, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    kind: 'smtp',
    async deliver(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        messageId: message.messageId,
      });
    },
    close: () => {
      transporter.close();
      return Promise.resolve();
    },
  };
}

export function createEmailTransport(config: {
  EMAIL_PROVIDER: 'outbox' | 'smtp';
  SMTP_URL?: string | undefined;
}): EmailTransport {
  return config.EMAIL_PROVIDER === 'smtp' && config.SMTP_URL
    ? smtpTransport(config.SMTP_URL)
    : outboxTransport;
}
