import { describe, expect, it } from "vitest";
import { ConfigError } from "@/server/core/config";
import { devMailboxEnabled, mailSettingsFromEnv } from "./settings";

describe("mail settings", () => {
  it("takes smtp:// and smtps:// URLs, treats an empty one as unset, and refuses anything else", () => {
    expect(mailSettingsFromEnv({ SMTP_URL: "smtps://u:p@mail.example.test:465" }).smtpUrl).toBe(
      "smtps://u:p@mail.example.test:465",
    );
    expect(mailSettingsFromEnv({ SMTP_URL: "" }).smtpUrl).toBeUndefined();
    expect(() => mailSettingsFromEnv({ SMTP_URL: "http://mail.example.test" })).toThrow(ConfigError);
  });

  it("defaults MAIL_FROM (also when empty) and refuses a sender with a line break", () => {
    expect(mailSettingsFromEnv({}).from).toBe("Review Mesh <no-reply@localhost>");
    expect(mailSettingsFromEnv({ MAIL_FROM: " " }).from).toBe("Review Mesh <no-reply@localhost>");
    expect(mailSettingsFromEnv({ MAIL_FROM: "Mesh <m@example.test>" }).from).toBe("Mesh <m@example.test>");
    expect(() => mailSettingsFromEnv({ MAIL_FROM: "a@example.test\r\nBcc: x@example.test" })).toThrow(ConfigError);
  });

  it("uses the development mailbox only without SMTP_URL and outside production", () => {
    expect(devMailboxEnabled(mailSettingsFromEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(devMailboxEnabled(mailSettingsFromEnv({ NODE_ENV: "production" }))).toBe(false);
    expect(devMailboxEnabled(mailSettingsFromEnv({ NODE_ENV: "development", SMTP_URL: "smtp://h:25" }))).toBe(false);
  });
});
