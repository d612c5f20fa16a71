import { describe, expect, it } from "vitest";
import { isAdminEmail } from "./admin";

describe("isAdminEmail", () => {
  it("matches listed addresses case-insensitively and ignores blanks", () => {
    expect(isAdminEmail("Admin@Example.com", " admin@example.com, ops@example.com ")).toBe(true);
    expect(isAdminEmail("ops@example.com", "admin@example.com,ops@example.com")).toBe(true);
    expect(isAdminEmail("user@example.com", "admin@example.com")).toBe(false);
    expect(isAdminEmail("", ",,")).toBe(false);
    expect(isAdminEmail(null, "admin@example.com")).toBe(false);
  });
});
