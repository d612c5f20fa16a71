import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { logger } from "@/server/core/logger";
import { devMailboxEnabled, mailSettingsFromEnv, type MailSettings } from "./settings";

/** One message: always a plain-text and an HTML part, one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the message is (password_reset, verify_email, ...): for the log, never the address. */
  kind: string;
}

/** Sends one message; rejects when it could not be handed over. */
export interface Mailer {
  readonly kind: "smtp" | "mailbox" | "none";
  send(message: MailMessage): Promise<void>;
}

/** Mails through an SMTP server (SMTP_URL: smtp:// or smtps://, with its credentials). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: "smtp",
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

/** What the development mailbox keeps beside each .eml file: what its page lists and shows. */
export interface MailboxEntry {
  id: string;
  date: string;
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string;
}

/**
 * The development mailbox: each message becomes `<dir>/<time>-<id>.eml` (the real message, as an SMTP
 * server would have received it) and a `.json` beside it for the development page (/dev/mail).
 */
export function mailboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "mailbox",
    async send(m) {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      const date = new Date();
      const id = `${date.toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}`;
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${id}.eml`), info.message as Buffer);
      const entry: MailboxEntry = { id, date: date.toISOString(), ...m };
      await writeFile(path.join(dir, `${id}.json`), JSON.stringify(entry));
    },
  };
}

/**
 * Production without SMTP_URL: nothing is sent, and each message is logged as an error (without its
 * address or content) so the operator sees it; the request that caused it is answered as always.
 */
export function noMailer(): Mailer {
  return {
    kind: "none",
    async send(m) {
      logger().error({ event: "mail_not_configured", kind: m.kind }, "mail not sent: SMTP_URL is not set");
    },
  };
}

/** The mailer the settings call for. */
export function createMailer(settings: MailSettings): Mailer {
  if (settings.smtpUrl) return smtpMailer(settings.smtpUrl, settings.from);
  if (devMailboxEnabled(settings)) return mailboxMailer(settings.mailDir, settings.from);
  return noMailer();
}

let processMailer: Mailer | undefined;

/** This process's mailer, made from the environment on first use. */
export function mailer(): Mailer {
  if (!processMailer) {
    processMailer = createMailer(mailSettingsFromEnv());
    if (processMailer.kind === "none") {
      logger().error({ event: "mail_not_configured" }, "SMTP_URL is not set: no e-mail will be sent");
    }
  }
  return processMailer;
}

/** Replaces the process's mailer (tests: a loopback SMTP server); undefined: made from the environment again. */
export function setMailer(next: Mailer | undefined): void {
  processMailer = next;
}

/** The pause before each retry of a message (two retries: three attempts); tests shorten it. */
export const mailRetry = { delaysMs: [1_000, 5_000] as readonly number[] };
const MAX_PENDING = 1_000;
const pending = new Set<Promise<void>>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref?.());

async function deliver(message: MailMessage): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await mailer().send(message);
      logger().info({ event: "mail_sent", kind: message.kind, attempts: attempt + 1 }, "mail sent");
      return;
    } catch (error) {
      const delay = mailRetry.delaysMs[attempt];
      if (delay === undefined) {
        logger().error({ event: "mail_failed", kind: message.kind, attempts: attempt + 1, err: error }, "mail failed");
        return;
      }
      await sleep(delay);
    }
  }
}

/**
 * Sends a message in the background: the caller's request is answered without waiting, and no
 * failure reaches it (a refused or unreachable server is retried twice, then logged). At most
 * MAX_PENDING messages are in flight per process; past that a message is dropped and logged.
 */
export function queueMail(message: MailMessage): void {
  if (pending.size >= MAX_PENDING) {
    logger().error({ event: "mail_dropped", kind: message.kind }, "mail dropped: too many in flight");
    return;
  }
  const job = deliver(message).finally(() => pending.delete(job));
  pending.add(job);
}

/**
 * Runs work that leads to a mail after the request is answered (looking an address up, issuing its
 * link), so the request's time does not depend on it: counted with the messages in flight, its error
 * logged, never thrown to the caller.
 */
export function inBackground(kind: string, task: () => Promise<void>): void {
  if (pending.size >= MAX_PENDING) {
    logger().error({ event: "mail_dropped", kind }, "mail dropped: too many in flight");
    return;
  }
  const job = Promise.resolve()
    .then(task)
    .catch((error: unknown) => logger().error({ event: "mail_task_failed", kind, err: error }, "mail task failed"))
    .finally(() => pending.delete(job));
  pending.add(job);
}

/** Resolves when every message and task queued so far has finished or given up (tests, shutdown). */
export async function flushMail(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
