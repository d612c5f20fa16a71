import { describe, expect, it } from "vitest";
import { INVITE_DEFAULT_MAX_USES, inviteState } from "./invite-state";

const now = new Date("2026-12-02T00:00:00Z");
const base = { expiresAt: new Date("2026-12-03T00:00:00Z"), revokedAt: null, maxUses: null, usedCount: 0 };

describe("inviteState", () => {
  it("an invite without a cap of its own is exhausted at the default cap (issue 41)", () => {
    expect(inviteState({ ...base, usedCount: INVITE_DEFAULT_MAX_USES - 1 }, now)).toBe("valid");
    expect(inviteState({ ...base, usedCount: INVITE_DEFAULT_MAX_USES }, now)).toBe("exhausted");
    expect(inviteState({ ...base, maxUses: 50, usedCount: INVITE_DEFAULT_MAX_USES }, now)).toBe("valid");
  });

  it("an invite whose issuer may no longer invite is revoked; expiry is checked first", () => {
    expect(inviteState({ ...base, issuerMayInvite: false }, now)).toBe("revoked");
    expect(inviteState({ ...base, issuerMayInvite: true }, now)).toBe("valid");
    expect(inviteState({ ...base, expiresAt: now, issuerMayInvite: false }, now)).toBe("expired");
  });
});
