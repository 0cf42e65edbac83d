import nodemailer from "nodemailer";
import { Verbatim, type Logger } from "../logger";

export type MailKind = "verification" | "reset-password" | "change-email" | "invitation" | "delete-account" | "usage" | "existing-account" | "alert";

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** The link the recipient must open; logged and listed in the outbox when no SMTP is configured. */
  actionUrl: string;
  /** A mail that renders its own HTML (alerts); its text already holds the link. */
  html?: string;
}

export interface OutboxEntry extends Mail {
  id: number;
  sentAt: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Mails kept in memory for /dev/outbox (newest first); empty when SMTP delivers them. */
  outbox(): OutboxEntry[];
}

const OUTBOX_LIMIT = 200;

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function renderHtml(mail: Mail) {
  const paragraphs = mail.text
    .split("\n\n")
    .map((block) => `<p>${escapeHtml(block)}</p>`)
    .join("");
  return `${paragraphs}<p><a href="${escapeHtml(mail.actionUrl)}">${escapeHtml(mail.actionUrl)}</a></p>`;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  logger: Logger;
  keepOutbox: boolean;
  /** MAIL_LOG_LINKS: write live action links to the log; otherwise their tokens are redacted. */
  logLinks?: boolean;
}

export function createMailer(options: MailerOptions): Mailer {
  const entries: OutboxEntry[] = [];
  let nextId = 1;
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;

  return {
    async send(mail) {
      if (transport) {
        await transport.sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.html ? mail.text : `${mail.text}\n\n${mail.actionUrl}`,
          html: mail.html ?? renderHtml(mail),
        });
        options.logger.info("mail sent", { mailKind: mail.kind, to: mail.to });
        return;
      }
      // No SMTP: the link goes to the log only when the operator asked for it (MAIL_LOG_LINKS),
      // because anyone who reads the log could otherwise take over the account it was meant for.
      options.logger.info("mail not sent (no SMTP_URL)", {
        mailKind: mail.kind,
        to: mail.to,
        subject: mail.subject,
        actionUrl: options.logLinks ? new Verbatim(mail.actionUrl) : mail.actionUrl,
      });
      if (!options.keepOutbox) return;
      entries.unshift({ ...mail, id: nextId++, sentAt: new Date().toISOString() });
      entries.length = Math.min(entries.length, OUTBOX_LIMIT);
    },
    outbox: () => [...entries],
  };
}

export { escapeHtml };
