import { z } from "zod";

const ZKey = z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: "must be 32 bytes of base64url" });

/** Input of `my.registerBrowserDevice`: the public halves of keys made in the browser, and their proof. */
export const ZRegisterBrowserDeviceInput = z.strictObject({
  meshId: z.uuid(),
  peerPubkey: ZKey,
  boxPubkey: ZKey,
  /** The name the other members see; the person's name in the mesh when left out. */
  displayName: z.string().trim().min(1).max(80).optional(),
  /** `v1.<ts>.<signature>` by the secret half of `peerPubkey` (device-proof.ts). */
  proof: z.string().min(1).max(200),
});
export type TRegisterBrowserDeviceInput = z.output<typeof ZRegisterBrowserDeviceInput>;

/** Live browser devices one person may hold in one mesh (a browser each; a restore reuses its device). */
export const BROWSER_DEVICES_PER_USER = 5;
