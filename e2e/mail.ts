import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { E2E_MAILBOX } from "./mail-server";

/** The mails delivered to an address so far (e2e/mail-server.ts), oldest first. */
export async function mailsTo(address: string): Promise<ParsedMail[]> {
  let files: string[] = [];
  try {
    files = readdirSync(E2E_MAILBOX).filter((f) => f.startsWith(`${address.toLowerCase()}--`));
  } catch {
    return [];
  }
  const stamp = (f: string) => Number(f.split("--")[1]?.split("-")[0] ?? 0);
  files.sort((a, b) => stamp(a) - stamp(b));
  return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(E2E_MAILBOX, f)))));
}

/** Waits for the `count`-th mail to an address (mail goes out after the answer) and returns it. */
export async function waitForMail(address: string, count = 1): Promise<ParsedMail> {
  await expect.poll(async () => (await mailsTo(address)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  const mails = await mailsTo(address);
  return mails[count - 1]!;
}

/** The path and query of the link to `page` in a mail's text (the app's own origin is the test's). */
export function linkIn(mail: ParsedMail, page: string): string {
  const match = new RegExp(`https?://[^\\s/]+(/[a-z]{2}/${page}\\?token=[A-Za-z0-9_-]+)`).exec(mail.text ?? "");
  if (!match?.[1]) throw new Error(`no ${page} link in the mail`);
  return match[1];
}
