import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { devMailboxEnabled, mailSettingsFromEnv, type MailSettings } from "./settings";
import type { MailboxEntry } from "./transport";

/** The newest messages the page lists. */
const PAGE_SIZE = 100;
const ID = /^[\dTZ-]+-[0-9a-f]{8}$/;

/** What the development mailbox page shows: nothing at all (a 404) unless the mailbox is in use. */
export type DevMailPage = { available: false } | { available: true; entries: Omit<MailboxEntry, "text" | "html">[] };

/** The development mailbox's messages, newest first (only without SMTP_URL and outside production). */
export async function devMailPage(settings: MailSettings = mailSettingsFromEnv()): Promise<DevMailPage> {
  if (!devMailboxEnabled(settings)) return { available: false };
  let files: string[];
  try {
    files = await readdir(settings.mailDir);
  } catch {
    return { available: true, entries: [] };
  }
  const ids = files
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .filter((id) => ID.test(id))
    .sort()
    .reverse()
    .slice(0, PAGE_SIZE);
  const entries = await Promise.all(ids.map((id) => devMailMessage(id, settings)));
  return {
    available: true,
    entries: entries.filter((e): e is MailboxEntry => e !== null).map(({ text: _t, html: _h, ...rest }) => rest),
  };
}

/** One message of the development mailbox, or null (unknown, or the mailbox is not in use). */
export async function devMailMessage(
  id: string,
  settings: MailSettings = mailSettingsFromEnv(),
): Promise<MailboxEntry | null> {
  if (!devMailboxEnabled(settings) || !ID.test(id)) return null;
  try {
    return JSON.parse(await readFile(path.join(settings.mailDir, `${id}.json`), "utf8")) as MailboxEntry;
  } catch {
    return null;
  }
}
