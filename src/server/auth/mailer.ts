import nodemailer from "nodemailer";
import type { Logger } from "../logger";

export type MailKind = "verification" | "reset-password" | "change-email" | "invitation" | "delete-account";

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** The link the recipient must open; logged and listed in the outbox when no SMTP is configured. */
  actionUrl: string;
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

export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger; keepOutbox: boolean }): Mailer {
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
          text: `${mail.text}\n\n${mail.actionUrl}`,
          html: renderHtml(mail),
        });
        options.logger.info("mail sent", { mailKind: mail.kind, to: mail.to });
        return;
      }
      // No SMTP: the action link goes to the log so an operator can still complete the flow.
      options.logger.info("mail not sent (no SMTP_URL)", {
        mailKind: mail.kind,
        to: mail.to,
        subject: mail.subject,
        actionUrl: mail.actionUrl,
      });
      if (!options.keepOutbox) return;
      entries.unshift({ ...mail, id: nextId++, sentAt: new Date().toISOString() });
      entries.length = Math.min(entries.length, OUTBOX_LIMIT);
    },
    outbox: () => [...entries],
  };
}

export { escapeHtml };
