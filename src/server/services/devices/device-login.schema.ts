import { z } from "zod";

// Inputs of `mesh login` and its approval page (device-login.ts).

export const ZStartDeviceLoginInput = z.strictObject({ clientName: z.string().trim().min(1).max(80) });

export const ZPollDeviceLoginInput = z.strictObject({ deviceCode: z.string().min(1).max(200) });

export const ZUserCodeInput = z.strictObject({ userCode: z.string().min(1).max(40) });

/** `password`: the account's password again, needed to approve unless the session signed in just now. */
export const ZDecideDeviceLoginInput = ZUserCodeInput.extend({
  approve: z.boolean(),
  password: z.string().min(1).max(200).optional(),
});

export const ZDeviceTokenInput = z.strictObject({ token: z.string().min(1).max(200) });
