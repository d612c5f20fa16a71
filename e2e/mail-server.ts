/**
 * The browser suite's SMTP server (global setup): a real SMTP server on 127.0.0.1:E2E_SMTP_PORT, which
 * the web app sends to (SMTP_URL in playwright.config.ts). Each message it receives is written to
 * E2E_MAILBOX as `<recipient>--<time>.eml`; specs read them with e2e/mail.ts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4600);
export const E2E_SMTP_URL = `smtp://e2e:e2e-mail-secret@127.0.0.1:${E2E_SMTP_PORT}`;
export const E2E_MAILBOX = path.resolve(import.meta.dirname, "..", ".data", "e2e-mail");

export default async function startMailServer(): Promise<() => Promise<void>> {
  rmSync(E2E_MAILBOX, { recursive: true, force: true });
  mkdirSync(E2E_MAILBOX, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "e2e" && auth.password === "e2e-mail-secret") callback(null, { user: "e2e" });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        for (const rcpt of session.envelope.rcptTo) {
          const name = `${rcpt.address.toLowerCase().replace(/[^a-z0-9@._-]/g, "_")}--${Date.now()}-${n++}.eml`;
          writeFileSync(path.join(E2E_MAILBOX, name), raw);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(E2E_SMTP_PORT, "127.0.0.1", () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
