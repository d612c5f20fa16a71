import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/routing";
import {
  changeEmailMail,
  emailChangedMail,
  inviteMail,
  mailLocale,
  passwordResetMail,
  signUpExistingMail,
  verifyEmailMail,
} from "./templates";
import { MAIL_STRINGS } from "./strings";

const URL_ = "https://mesh.example.test/en/reset-password?token=abc";

describe("mail templates", () => {
  it.each(LOCALES)("every mail in %s has the product's name, a text and an HTML part, and loads nothing", (locale) => {
    const mails = [
      passwordResetMail("a@example.test", locale, URL_),
      verifyEmailMail("a@example.test", locale, URL_),
      changeEmailMail("a@example.test", locale, URL_),
      emailChangedMail("a@example.test", locale, "b@example.test"),
      signUpExistingMail("a@example.test", locale, URL_),
      inviteMail("a@example.test", locale, { url: URL_, inviter: "Olga", mesh: "Garden", expiresAt: new Date(0) }),
    ];
    for (const m of mails) {
      expect(m.subject).toContain("Review Mesh");
      expect(m.text.length).toBeGreaterThan(20);
      expect(m.html).toContain(`lang="${locale}"`);
      // No remote resources, no tracking pixel, no redirect: the only links are the action itself.
      expect(m.html).not.toMatch(/<img|<link|<script|src=|url\(/i);
      for (const href of m.html.matchAll(/href="([^"]*)"/g)) expect(href[1]).toBe(URL_.replace(/&/g, "&amp;"));
      expect(m.text).not.toMatch(/\{\w+\}/);
      expect(m.html).not.toMatch(/\{\w+\}/);
    }
  });

  it("escapes names in the HTML and keeps the subject on one line", () => {
    const m = inviteMail("a@example.test", "en", {
      url: URL_,
      inviter: 'Eve <img src="https://evil.test/p.gif">',
      mesh: "Garden\r\nBcc: victim@example.test",
      expiresAt: new Date(0),
    });
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.html).not.toContain("<img");
    expect(m.html).toContain("Eve &lt;img");
  });

  it("has the same messages in every language, and falls back to English", () => {
    const shape = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [k] : shape(v as object).map((x) => `${k}.${x}`)));
    for (const locale of LOCALES) expect(shape(MAIL_STRINGS[locale])).toEqual(shape(MAIL_STRINGS.en));
    expect(mailLocale("fr")).toBe("en");
    expect(mailLocale("de")).toBe("de");
  });
});
