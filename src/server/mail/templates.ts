import { LOCALES, type Locale } from "@/i18n/routing";
import { PRODUCT_NAME } from "./settings";
import { MAIL_STRINGS, type MailStrings } from "./strings";
import type { MailMessage } from "./transport";

/** A locale the mails know, or English. */
export function mailLocale(value: string | null | undefined): Locale {
  return (LOCALES as readonly string[]).includes(value ?? "") ? (value as Locale) : "en";
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** Fills `{name}` placeholders. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

interface Parts {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  after: string[];
}

/**
 * One message in both forms. The HTML has no remote resources (no images, fonts or styles from
 * elsewhere), no tracking pixels and no redirect links: the one link is the action's address itself,
 * also printed in full.
 */
function render(kind: string, to: string, locale: Locale, parts: Parts, values: Record<string, string>): MailMessage {
  const s: MailStrings = MAIL_STRINGS[locale];
  const v = { product: PRODUCT_NAME, ...values };
  const t = (x: string) => fill(x, v);
  const h = (x: string) =>
    fill(escapeHtml(x), Object.fromEntries(Object.entries(v).map(([k, y]) => [k, escapeHtml(y)])));
  const body = parts.paragraphs;
  const text = [
    t(s.greeting),
    "",
    ...body.flatMap((p) => [t(p), ""]),
    ...(parts.action ? [`${t(parts.action.label)}:`, parts.action.url, ""] : []),
    ...parts.after.flatMap((p) => [t(p), ""]),
    t(s.signature),
    "",
  ].join("\n");
  const url = parts.action ? escapeHtml(parts.action.url) : "";
  const html = [
    "<!doctype html>",
    `<html lang="${locale}"><head><meta charset="utf-8"><title>${h(parts.subject)}</title></head>`,
    '<body style="font-family:sans-serif;line-height:1.5;color:#222;max-width:36em">',
    `<p>${h(s.greeting)}</p>`,
    ...body.map((p) => `<p>${h(p)}</p>`),
    ...(parts.action
      ? [
          `<p><a href="${url}" style="display:inline-block;padding:.6em 1.2em;background:#2456d3;color:#fff;text-decoration:none;border-radius:4px">${h(parts.action.label)}</a></p>`,
          `<p style="font-size:.9em;color:#555">${h(s.linkHint)}<br><a href="${url}">${url}</a></p>`,
        ]
      : []),
    ...parts.after.map((p) => `<p style="font-size:.9em;color:#555">${h(p)}</p>`),
    `<p>${h(s.signature)}</p>`,
    "</body></html>",
    "",
  ].join("\n");
  // One line: a name or mesh name with a line break cannot add a header.
  return { kind, to, subject: t(parts.subject).replace(/[\r\n]+/g, " "), text, html };
}

export function passwordResetMail(to: string, locale: Locale, url: string): MailMessage {
  const s = MAIL_STRINGS[locale];
  return render(
    "password_reset",
    to,
    locale,
    {
      subject: s.passwordReset.subject,
      paragraphs: [s.passwordReset.intro],
      action: { label: s.passwordReset.action, url },
      after: [s.passwordReset.validity, s.ignore],
    },
    {},
  );
}

export function verifyEmailMail(to: string, locale: Locale, url: string): MailMessage {
  const s = MAIL_STRINGS[locale];
  return render(
    "verify_email",
    to,
    locale,
    {
      subject: s.verifyEmail.subject,
      paragraphs: [s.verifyEmail.intro],
      action: { label: s.verifyEmail.action, url },
      after: [s.verifyEmail.validity, s.ignore],
    },
    {},
  );
}

export function changeEmailMail(to: string, locale: Locale, url: string): MailMessage {
  const s = MAIL_STRINGS[locale];
  return render(
    "change_email",
    to,
    locale,
    {
      subject: s.changeEmail.subject,
      paragraphs: [s.changeEmail.intro],
      action: { label: s.changeEmail.action, url },
      after: [s.changeEmail.validity, s.ignore],
    },
    {},
  );
}

export function emailChangedMail(to: string, locale: Locale, newEmail: string): MailMessage {
  const s = MAIL_STRINGS[locale];
  return render(
    "email_changed",
    to,
    locale,
    { subject: s.emailChanged.subject, paragraphs: [s.emailChanged.intro, s.emailChanged.advice], after: [] },
    { email: newEmail },
  );
}

export function signUpExistingMail(to: string, locale: Locale, resetUrl: string): MailMessage {
  const s = MAIL_STRINGS[locale];
  return render(
    "sign_up_existing",
    to,
    locale,
    {
      subject: s.signUpExisting.subject,
      paragraphs: [s.signUpExisting.intro, s.signUpExisting.advice],
      action: { label: s.signUpExisting.action, url: resetUrl },
      after: [s.ignore],
    },
    {},
  );
}

export function inviteMail(
  to: string,
  locale: Locale,
  input: { url: string; inviter: string; mesh: string; expiresAt: Date },
): MailMessage {
  const s = MAIL_STRINGS[locale];
  const expires = input.expiresAt.toISOString().slice(0, 16).replace("T", " ");
  return render(
    "invite",
    to,
    locale,
    {
      subject: s.invite.subject,
      paragraphs: [s.invite.intro],
      action: { label: s.invite.action, url: input.url },
      after: [s.invite.validity, s.ignore],
    },
    { inviter: input.inviter, mesh: input.mesh, expires },
  );
}

/** A review alert (docs/review-engine.md, "Alerts"): its lines, then the link to the evidence. */
export function alertMail(
  to: string,
  locale: Locale,
  alert: { subject: string; lines: string[]; links: { label: string; url: string }[] },
): MailMessage {
  const [first, ...rest] = alert.links;
  return render(
    "review_alert",
    to,
    locale,
    {
      subject: alert.subject,
      paragraphs: alert.lines,
      ...(first ? { action: first } : {}),
      after: rest.map((l) => `${l.label}: ${l.url}`),
    },
    {},
  );
}
