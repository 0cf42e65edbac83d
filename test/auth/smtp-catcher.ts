/**
 * A local SMTP server that keeps every message it receives, plus just enough MIME decoding
 * (multipart, quoted-printable, base64) to read the text of a mail and find its links.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text/plain part (or the whole decoded body for a single-part mail). */
  text: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
}

export interface SmtpCatcher {
  port: number;
  mails: CaughtMail[];
  /** Resolves with the first mail to `to` (matching `predicate`) that arrives within the timeout. */
  waitFor(to: string, predicate?: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        mails.push(parseMail(raw, from, to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    mails,
    async waitFor(to, predicate = () => true, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((entry) => entry.to.includes(to.toLowerCase()) && predicate(entry));
        if (mail) return mail;
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} within ${timeoutMs} ms (caught: ${mails.map((m) => `${m.to.join(",")}: ${m.subject}`).join("; ")})`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function splitHead(message: string) {
  const at = message.search(/\r?\n\r?\n/);
  if (at === -1) return { headers: message, body: "" };
  const separator = message.slice(at).match(/^\r?\n\r?\n/)![0];
  return { headers: message.slice(0, at), body: message.slice(at + separator.length) };
}

function header(headers: string, name: string) {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, " ");
  const match = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return match ? match[1].trim() : "";
}

function decodeBody(body: string, encoding: string) {
  switch (encoding.toLowerCase()) {
    case "quoted-printable": {
      const joined = body.replace(/=\r?\n/g, "");
      const bytes: number[] = [];
      for (let i = 0; i < joined.length; i++) {
        if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
          bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
          i += 2;
        } else {
          bytes.push(...Buffer.from(joined[i], "utf8"));
        }
      }
      return Buffer.from(bytes).toString("utf8");
    }
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** Encoded-words in headers (=?UTF-8?Q?...?= / =?UTF-8?B?...?=). */
function decodeWords(value: string) {
  return value.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_all, kind: string, text: string) =>
    kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
  );
}

/** Returns the decoded text/plain part, searching nested multiparts. */
function plainText(entity: string): string | undefined {
  const { headers, body } = splitHead(entity);
  const type = header(headers, "Content-Type") || "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith("--")) break;
      const text = plainText(part.replace(/^\r?\n/, ""));
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (!/^text\/plain/i.test(type)) return undefined;
  return decodeBody(body, header(headers, "Content-Transfer-Encoding"));
}

function parseMail(raw: string, from: string, to: string[]): CaughtMail {
  const { headers } = splitHead(raw);
  const text = plainText(raw) ?? "";
  return {
    from,
    to,
    raw,
    subject: decodeWords(header(headers, "Subject")),
    text,
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}
