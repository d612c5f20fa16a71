import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on 127.0.0.1 (a free port) that keeps what it receives, parsed. */
export interface LoopbackSmtp {
  /** smtp://user:pass@127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ParsedMail[];
  /** The raw envelope recipients of each message, in order. */
  recipients: string[][];
  close(): Promise<void>;
}

/** `refuseFirst`: the first this many messages are refused (a 451, as a busy server answers). */
export async function startLoopbackSmtp(opts: { refuseFirst?: number } = {}): Promise<LoopbackSmtp> {
  let refuse = opts.refuseFirst ?? 0;
  const received: ParsedMail[] = [];
  const recipients: string[][] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "test-secret") callback(null, { user: "mailer" });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, session, callback) {
      if (refuse > 0) {
        refuse -= 1;
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:test-secret@127.0.0.1:${port}`,
    received,
    recipients,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
