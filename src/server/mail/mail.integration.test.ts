// Issue 41, deliverable 3: e-mail through a real SMTP server on loopback (smtp-server), read back with
// mailparser. Password reset, address verification, address change and invites by e-mail, each on the
// real database; and the development mailbox when SMTP_URL is unset.
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openSession, findSessionUser } from "@/server/auth/sessions";
import { sha256Hex } from "@/server/core/crypto/hash";
import { AppError } from "@/server/core/errors";
import { authenticate } from "@/server/services/users/authenticate";
import { confirmEmailChange, requestEmailChange } from "@/server/services/account/change-email";
import {
  emailVerificationState,
  resendEmailVerification,
  startEmailVerification,
  verifyEmail,
} from "@/server/services/account/email-verification";
import { requestPasswordReset, resetPassword } from "@/server/services/account/password-reset";
import { createInvite } from "@/server/services/invites/create-invite";
import { sendInviteByEmail } from "@/server/services/invites/invite-by-email";
import { ZCreateInviteInput } from "@/server/services/invites/create-invite.schema";
import { addMember, ctxOf, makeMesh, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { startLoopbackSmtp, type LoopbackSmtp } from "@/test/loopback-smtp";
import { devMailboxEnabled, mailSettingsFromEnv } from "./settings";
import { createMailer, flushMail, mailRetry, smtpMailer, setMailer } from "./transport";
import { devMailPage } from "./dev-mailbox";

const db = testDb();
let smtp: LoopbackSmtp;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  setMailer(smtpMailer(smtp.url, "Review Mesh <no-reply@mesh.example.test>"));
});
afterAll(async () => {
  await flushMail();
  setMailer(undefined);
  await smtp.close();
  await db.$disconnect();
});
beforeEach(async () => {
  await flushMail();
  smtp.received.length = 0;
  smtp.recipients.length = 0;
});

/** A distinct client address per test: the per-client buckets of one test do not touch another's. */
const client = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${uid("c")}`;
const mailsTo = (address: string) =>
  smtp.received.filter((m) => smtp.recipients[smtp.received.indexOf(m)]?.includes(address));
const tokenOf = (text: string, page: string) => {
  const match = new RegExp(`/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(text);
  if (!match?.[1]) throw new Error(`no ${page} link in: ${text}`);
  return match[1];
};
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    if (error instanceof AppError) return `${error.code}:${error.message}`;
    throw error;
  }
  return "resolved";
};

describe("password reset", () => {
  it("answers an existing and an unknown address identically; only the existing one gets a mail", async () => {
    const user = await makeUser(db);
    const unknown = `${uid("nobody")}@example.test`;
    const a = await requestPasswordReset(visitorCtx(db), { email: user.email, locale: "en" }, { client: client() });
    const b = await requestPasswordReset(visitorCtx(db), { email: unknown, locale: "en" }, { client: client() });
    expect(b).toEqual(a);
    await flushMail();
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(mailsTo(unknown)).toHaveLength(0);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toContain("Review Mesh");
    expect(mail.text).toMatch(/\/en\/reset-password\?token=/);
    expect(typeof mail.html === "string" && mail.html.includes("/en/reset-password?token=")).toBe(true);
    // No remote resources, no tracking: the HTML loads nothing.
    expect(String(mail.html)).not.toMatch(/<img|src=|url\(|<link/i);
    // The token is stored only as its hash.
    const token = tokenOf(mail.text ?? "", "reset-password");
    const rows = await db.emailToken.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.tokenHash)).toEqual([sha256Hex(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("resets once, ends every session and command-line token, and refuses the link a second time", async () => {
    const user = await makeUser(db);
    const secret = await openSession(db, user.id);
    await db.deviceToken.create({
      data: {
        userId: user.id,
        tokenHash: sha256Hex(uid("mdt")),
        name: "laptop",
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    await requestPasswordReset(visitorCtx(db), { email: user.email, locale: "en" }, { client: client() });
    await flushMail();
    const token = tokenOf(mailsTo(user.email)[0]?.text ?? "", "reset-password");
    const done = await resetPassword(visitorCtx(db), {
      token,
      newPassword: "a-brand-new-password",
      confirmPassword: "a-brand-new-password",
    });
    expect(done).toMatchObject({ email: user.email, sessionsEnded: 1, deviceTokensEnded: 1 });
    expect(await findSessionUser(db, secret)).toBeNull();
    expect(await db.deviceToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-brand-new-password" })).not.toBeNull();
    expect(
      await refusal(
        resetPassword(visitorCtx(db), {
          token,
          newPassword: "yet-another-password",
          confirmPassword: "yet-another-password",
        }),
      ),
    ).toBe("BAD_REQUEST:link_invalid");
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-brand-new-password" })).not.toBeNull();
  });

  it("refuses a link older than 30 minutes, and an earlier link once a newer one was sent", async () => {
    const user = await makeUser(db);
    const t0 = new Date();
    await requestPasswordReset(visitorCtx(db, t0), { email: user.email, locale: "en" }, { client: client() });
    await flushMail();
    const token = tokenOf(mailsTo(user.email)[0]?.text ?? "", "reset-password");
    const input = { token, newPassword: "a-brand-new-password", confirmPassword: "a-brand-new-password" };
    const late = new Date(t0.getTime() + 30 * 60_000 + 1);
    expect(await refusal(resetPassword(visitorCtx(db, late), input))).toBe("BAD_REQUEST:link_invalid");
    // Within the 30 minutes, but a newer link was asked for meanwhile: only the newest works.
    await requestPasswordReset(visitorCtx(db, t0), { email: user.email, locale: "en" }, { client: client() });
    await flushMail();
    const within = new Date(t0.getTime() + 29 * 60_000);
    expect(await refusal(resetPassword(visitorCtx(db, within), input))).toBe("BAD_REQUEST:link_invalid");
    const newest = tokenOf(mailsTo(user.email)[1]?.text ?? "", "reset-password");
    await expect(resetPassword(visitorCtx(db, within), { ...input, token: newest })).resolves.toMatchObject({
      email: user.email,
    });
  });

  it("limits requests per address (known or not, the same) and per client", async () => {
    const user = await makeUser(db);
    const unknown = `${uid("nobody")}@example.test`;
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 6; i++) {
        out.push(await refusal(requestPasswordReset(visitorCtx(db), { email, locale: "en" }, { client: client() })));
      }
      return out;
    };
    const known = await answers(user.email);
    expect(known).toEqual([...Array(5).fill("resolved"), "TOO_MANY_REQUESTS:rate_limited"]);
    expect(await answers(unknown)).toEqual(known);
    await flushMail();
    expect(mailsTo(user.email)).toHaveLength(5);

    const one = client();
    const perClient: string[] = [];
    for (let i = 0; i < 11; i++) {
      const email = `${uid("c")}@example.test`;
      perClient.push(await refusal(requestPasswordReset(visitorCtx(db), { email, locale: "en" }, { client: one })));
    }
    expect(perClient.slice(0, 10).every((r) => r === "resolved")).toBe(true);
    expect(perClient[10]).toBe("TOO_MANY_REQUESTS:rate_limited");
  });
});

describe("e-mail verification", () => {
  it("mails a link after sign-up that sets emailVerified once", async () => {
    const user = await makeUser(db);
    expect(await emailVerificationState(ctxOf(db, user))).toEqual({ email: user.email, verified: false });
    await startEmailVerification(visitorCtx(db), { userId: user.id, locale: "es" });
    await flushMail();
    const mail = mailsTo(user.email)[0]!;
    expect(mail.subject).toBe("Confirma tu dirección de correo en Review Mesh");
    const token = tokenOf(mail.text ?? "", "verify-email");
    expect(mail.text).toContain("/es/verify-email?token=");
    await expect(verifyEmail(visitorCtx(db), { token })).resolves.toMatchObject({ verified: true });
    expect(await emailVerificationState(ctxOf(db, user))).toEqual({ email: user.email, verified: true });
    expect(await refusal(verifyEmail(visitorCtx(db), { token }))).toBe("BAD_REQUEST:link_invalid");
    expect(await refusal(resendEmailVerification(ctxOf(db, user), { locale: "en" }))).toBe("CONFLICT:already_verified");
  });

  it("limits resends per account, and a link expires after 24 hours", async () => {
    const user = await makeUser(db);
    const t0 = new Date();
    const results: string[] = [];
    for (let i = 0; i < 6; i++) {
      results.push(await refusal(resendEmailVerification(ctxOf(db, user, { now: () => t0 }), { locale: "en" })));
    }
    expect(results).toEqual([...Array(5).fill("resolved"), "TOO_MANY_REQUESTS:rate_limited"]);
    await flushMail();
    const newest = tokenOf(mailsTo(user.email).at(-1)?.text ?? "", "verify-email");
    const late = new Date(t0.getTime() + 24 * 3_600_000 + 1);
    expect(await refusal(verifyEmail(visitorCtx(db, late), { token: newest }))).toBe("BAD_REQUEST:link_invalid");
  });
});

describe("change of address", () => {
  it("applies only when the new address confirms, and tells the old one", async () => {
    const user = await makeUser(db);
    const newEmail = `${uid("new")}@example.test`;
    await requestEmailChange(ctxOf(db, user), { newEmail, locale: "de" });
    await flushMail();
    // Nothing changed yet; the link went to the new address only.
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
    expect(mailsTo(user.email)).toHaveLength(0);
    const mail = mailsTo(newEmail)[0]!;
    expect(mail.subject).toBe("Bestätige deine neue E-Mail-Adresse für Review Mesh");
    const token = tokenOf(mail.text ?? "", "confirm-email");
    // A verification token is not a change token.
    expect(await refusal(verifyEmail(visitorCtx(db), { token }))).toBe("BAD_REQUEST:link_invalid");
    await expect(confirmEmailChange(visitorCtx(db), { token, locale: "de" })).resolves.toEqual({ email: newEmail });
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.email).toBe(newEmail);
    expect(after.emailVerified).not.toBeNull();
    await flushMail();
    const notice = mailsTo(user.email)[0]!;
    expect(notice.text).toContain(newEmail);
    expect(await refusal(confirmEmailChange(visitorCtx(db), { token }))).toBe("BAD_REQUEST:link_invalid");
  });

  it("fails when the new address got an account meanwhile, and changes nothing", async () => {
    const user = await makeUser(db);
    const other = await makeUser(db);
    const taken = `${uid("later")}@example.test`;
    await requestEmailChange(ctxOf(db, user), { newEmail: taken, locale: "en" });
    await flushMail();
    const token = tokenOf(mailsTo(taken)[0]?.text ?? "", "confirm-email");
    await db.user.update({ where: { id: other.id }, data: { email: taken } });
    expect(await refusal(confirmEmailChange(visitorCtx(db), { token }))).toBe("BAD_REQUEST:link_invalid");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });
});

describe("invite by e-mail", () => {
  it("mails the invite's link in the sender's language, as text and HTML", async () => {
    const owner = await makeUser(db, { name: "Olga" });
    const mesh = await makeMesh(db, owner, "Gartenfreunde");
    const invite = await createInvite(
      ctxOf(db, owner),
      ZCreateInviteInput.parse({ meshId: mesh.id, role: "member", expiresInHours: 24, maxUses: null }),
    );
    const to = `${uid("friend")}@example.test`;
    await sendInviteByEmail(ctxOf(db, owner), { inviteId: invite.inviteId, email: to, locale: "de" });
    await flushMail();
    const mail = mailsTo(to)[0]!;
    expect(mail.subject).toBe("Olga lädt dich zu Gartenfreunde auf Review Mesh ein");
    expect(mail.text).toContain(invite.shortUrl);
    expect(mail.text).toContain("Einladung öffnen");
    expect(String(mail.html)).toContain(`href="${invite.shortUrl}"`);
    expect(String(mail.html)).toContain('lang="de"');
  });

  it("refuses someone who may not issue the invite, and limits a sender", async () => {
    const owner = await makeUser(db);
    const member = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, member, { role: "member" });
    const invite = await createInvite(
      ctxOf(db, owner),
      ZCreateInviteInput.parse({ meshId: mesh.id, role: "member", expiresInHours: 24, maxUses: null }),
    );
    const input = { inviteId: invite.inviteId, email: `${uid("x")}@example.test`, locale: "en" as const };
    expect(await refusal(sendInviteByEmail(ctxOf(db, member), input))).toBe("NOT_FOUND:invite_not_found");
    const results: string[] = [];
    for (let i = 0; i < 31; i++) results.push(await refusal(sendInviteByEmail(ctxOf(db, owner), input)));
    expect(results.slice(0, 30).every((r) => r === "resolved")).toBe(true);
    expect(results[30]).toBe("TOO_MANY_REQUESTS:rate_limited");
  });
});

describe("the development mailbox", () => {
  it("keeps each message as an .eml when SMTP_URL is unset (development only)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mailbox-"));
    try {
      const dev = { ...mailSettingsFromEnv({ NODE_ENV: "development" }), mailDir: dir };
      expect(devMailboxEnabled(dev)).toBe(true);
      const mailer = createMailer(dev);
      expect(mailer.kind).toBe("mailbox");
      const token = randomBytes(32).toString("base64url");
      await mailer.send({
        kind: "verify_email",
        to: "someone@example.test",
        subject: "Hello",
        text: `https://mesh.example.test/en/verify-email?token=${token}`,
        html: `<p><a href="https://mesh.example.test/en/verify-email?token=${token}">x</a></p>`,
      });
      const files = await readdir(dir);
      const eml = files.filter((f) => f.endsWith(".eml"));
      expect(eml).toHaveLength(1);
      expect(eml[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/);
      const parsed = await simpleParser(await readFile(path.join(dir, eml[0]!)));
      expect(parsed.subject).toBe("Hello");
      expect(parsed.text).toContain(token);
      expect(await devMailPage(dev)).toMatchObject({ available: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("is never used in production: no mailbox, no page, and no SMTP_URL only logs", async () => {
    const prod = mailSettingsFromEnv({ NODE_ENV: "production" });
    expect(devMailboxEnabled(prod)).toBe(false);
    expect(createMailer(prod).kind).toBe("none");
    expect(await devMailPage(prod)).toEqual({ available: false });
    await expect(
      createMailer(prod).send({ kind: "password_reset", to: "a@example.test", subject: "s", text: "t", html: "h" }),
    ).resolves.toBeUndefined();
    // With SMTP_URL set, development sends through it too (no mailbox page).
    const dev = mailSettingsFromEnv({ NODE_ENV: "development", SMTP_URL: smtp.url });
    expect(createMailer(dev).kind).toBe("smtp");
    expect(await devMailPage(dev)).toEqual({ available: false });
  });
});

describe("sending never fails a request", () => {
  it("answers a reset request the same when the SMTP server is down, and logs the failure", async () => {
    const saved = mailRetry.delaysMs;
    mailRetry.delaysMs = [10, 10];
    try {
      const down = await startLoopbackSmtp();
      await down.close();
      setMailer(smtpMailer(down.url, "Review Mesh <no-reply@mesh.example.test>"));
      const user = await makeUser(db);
      await expect(
        requestPasswordReset(visitorCtx(db), { email: user.email, locale: "en" }, { client: client() }),
      ).resolves.toEqual({ accepted: true });
      await flushMail();
    } finally {
      mailRetry.delaysMs = saved;
      setMailer(smtpMailer(smtp.url, "Review Mesh <no-reply@mesh.example.test>"));
    }
  });

  it("retries a message the server refused, and delivers it once", async () => {
    const saved = mailRetry.delaysMs;
    mailRetry.delaysMs = [10, 10];
    const busy = await startLoopbackSmtp({ refuseFirst: 1 });
    try {
      setMailer(smtpMailer(busy.url, "Review Mesh <no-reply@mesh.example.test>"));
      const user = await makeUser(db);
      await requestPasswordReset(visitorCtx(db), { email: user.email, locale: "en" }, { client: client() });
      await flushMail();
      expect(busy.received).toHaveLength(1);
      expect(busy.recipients[0]).toEqual([user.email]);
    } finally {
      mailRetry.delaysMs = saved;
      setMailer(smtpMailer(smtp.url, "Review Mesh <no-reply@mesh.example.test>"));
      await busy.close();
    }
  });
});
