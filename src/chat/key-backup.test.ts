import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { openKeys, sealKeys } from "./key-backup";
import { KEY_BACKUP_MAX_CHARS } from "../server/services/chat/key-backups.schema";

const cheap = { N: 2 ** 10, r: 8, p: 1 };

describe("key backup", () => {
  const device = {
    memberId: "0195f0b2-4c1e-7a3b-9d2e-1f2a3b4c5d6e",
    signSecretKey: nacl.sign.keyPair().secretKey,
    boxSecretKey: nacl.box.keyPair().secretKey,
  };

  it("opens with the passphrase it was sealed with, and with no other", async () => {
    const sealed = await sealKeys(device, "correct horse battery", cheap);
    expect(sealed.length).toBeLessThan(KEY_BACKUP_MAX_CHARS);
    expect(sealed).not.toContain(Buffer.from(device.boxSecretKey).toString("base64url"));
    expect(await openKeys(sealed, "correct horse battery")).toEqual(device);
    expect(await openKeys(sealed, "correct horse batterY")).toBeUndefined();
  });

  it("refuses a tampered blob and one that asks for more work than the page ever does", async () => {
    const sealed = Buffer.from(await sealKeys(device, "passphrase!!", cheap), "base64url");
    const flipped = Uint8Array.from(sealed);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect(await openKeys(Buffer.from(flipped).toString("base64url"), "passphrase!!")).toBeUndefined();
    const greedy = Uint8Array.from(sealed);
    greedy[1] = 30;
    expect(await openKeys(Buffer.from(greedy).toString("base64url"), "passphrase!!")).toBeUndefined();
    expect(await openKeys("not-a-backup", "passphrase!!")).toBeUndefined();
  });
});
