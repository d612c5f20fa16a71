import path from "node:path";
import { z } from "zod";
import { parseConfig } from "@/server/core/config";

/** The product's name as mails show it (sender name, subjects, signature). */
export const PRODUCT_NAME = "Review Mesh";

/**
 * Mail settings (README, "Configuration"): part of the web app's environment (src/server/env.ts), read on
 * their own here so the mail path works in tests and scripts without the rest of it.
 */
export const ZMailEnv = z.object({
  /** smtp://user:pass@host:port or smtps://…; unset: the development mailbox (never in production). */
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/, { error: "must be an smtp:// or smtps:// URL" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** The sender of every mail: an address, or "Name <address>". */
  MAIL_FROM: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string()
      .trim()
      .max(200)
      .regex(/^[^\r\n@]*@[^\r\n]+$/, { error: "must be an e-mail address or Name <address>" })
      .default(`${PRODUCT_NAME} <no-reply@localhost>`),
  ),
});
export type TMailEnv = z.output<typeof ZMailEnv>;

/** How this process sends mail. */
export interface MailSettings {
  /** The SMTP server; undefined: the development mailbox, or nothing at all in production. */
  smtpUrl?: string;
  from: string;
  /** NODE_ENV is production: no development mailbox, no mailbox page. */
  production: boolean;
  /** Where the development mailbox keeps its messages (.data/mail). */
  mailDir: string;
}

// Relative to the working folder (the project's root under `npm start`/`npm run dev`): the web app's bundle
// cannot locate itself through import.meta.url (Turbopack resolves such a URL as an asset at build time).
export const DEV_MAIL_DIR = path.resolve(".data", "mail");

/** The settings from the environment (throws a ConfigError naming a bad variable). */
export function mailSettingsFromEnv(env: Record<string, string | undefined> = process.env): MailSettings {
  const parsed = parseConfig(ZMailEnv, env);
  return {
    smtpUrl: parsed.SMTP_URL,
    from: parsed.MAIL_FROM,
    production: env.NODE_ENV === "production",
    mailDir: DEV_MAIL_DIR,
  };
}

/** Whether the development mailbox (and its page) is in use: no SMTP_URL and not in production. */
export function devMailboxEnabled(settings: MailSettings): boolean {
  return !settings.smtpUrl && !settings.production;
}
