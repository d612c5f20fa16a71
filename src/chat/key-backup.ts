// The key backup of a browser device (docs/mesh-api.md, "Key backup"): the device's secret keys sealed with
// a key derived from the person's passphrase, so another browser of theirs can restore the device. The
// server stores the sealed text and nothing else; the passphrase never leaves the browser.
//
// Format (base64url): 0x01 ‖ log2 N (1) ‖ r (1) ‖ p (1) ‖ salt (16) ‖ nonce (24) ‖ secretbox(JSON, nonce, key)
// with key = scrypt(passphrase, salt, N, r, p, 32) and JSON {"memberId","sign","box"} (base64url secrets).
import nacl from "tweetnacl";
import { z } from "zod";
import { fromBase64Url, toBase64Url, tryDecodeUtf8, tryFromBase64Url, utf8 } from "../server/core/encoding";
import type { DeviceSecrets } from "./chat-client";
import { scrypt, type ScryptParams } from "./scrypt";

const VERSION = 1;
const SALT = 16;
const HEADER = 4 + SALT + nacl.secretbox.nonceLength;
/** 32 MiB and about a second in a browser per guess: N = 2^15, r = 8, p = 1. */
export const BACKUP_COST: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
/** Shortest passphrase the page accepts (it cannot be reset: a forgotten one loses the backup). */
export const MIN_PASSPHRASE = 10;

const ZSealedKeys = z.object({
  memberId: z.uuid(),
  sign: z.string().refine((k) => tryFromBase64Url(k, 64) !== undefined),
  box: z.string().refine((k) => tryFromBase64Url(k, 32) !== undefined),
});

/** Seals a device's secrets with a passphrase. */
export async function sealKeys(device: DeviceSecrets, passphrase: string, cost = BACKUP_COST): Promise<string> {
  const salt = nacl.randomBytes(SALT);
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const key = await scrypt(utf8(passphrase.normalize("NFC")), salt, cost, 32);
  const body = utf8(
    JSON.stringify({
      memberId: device.memberId,
      sign: toBase64Url(device.signSecretKey),
      box: toBase64Url(device.boxSecretKey),
    }),
  );
  const header = Uint8Array.of(VERSION, Math.log2(cost.N), cost.r, cost.p);
  const sealed = nacl.secretbox(body, nonce, key);
  const out = new Uint8Array(HEADER + sealed.length);
  out.set(header);
  out.set(salt, 4);
  out.set(nonce, 4 + SALT);
  out.set(sealed, HEADER);
  return toBase64Url(out);
}

/** Opens a sealed backup; undefined for a wrong passphrase or a text that is not a backup. */
export async function openKeys(sealedText: string, passphrase: string): Promise<DeviceSecrets | undefined> {
  const bytes = tryFromBase64Url(sealedText);
  if (!bytes || bytes.length <= HEADER || bytes[0] !== VERSION) return undefined;
  const [logN = 0, r = 0, p = 0] = bytes.subarray(1, 4);
  // A stored blob cannot make the browser spend more than the page ever asks for.
  if (logN < 1 || logN > 20 || r < 1 || r > 16 || p < 1 || p > 4) return undefined;
  const key = await scrypt(utf8(passphrase.normalize("NFC")), bytes.subarray(4, 4 + SALT), { N: 2 ** logN, r, p }, 32);
  const opened = nacl.secretbox.open(bytes.subarray(HEADER), bytes.subarray(4 + SALT, HEADER), key);
  const text = opened ? tryDecodeUtf8(opened) : undefined;
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = ZSealedKeys.safeParse(json);
  if (!parsed.success) return undefined;
  return {
    memberId: parsed.data.memberId,
    signSecretKey: fromBase64Url(parsed.data.sign, 64),
    boxSecretKey: fromBase64Url(parsed.data.box, 32),
  };
}
