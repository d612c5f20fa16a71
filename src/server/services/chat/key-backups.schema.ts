import { z } from "zod";

/** The sealed keys of one device at most this long (base64url): the keys and a few headers fit in far less. */
export const KEY_BACKUP_MAX_CHARS = 2_048;

/** Input of `my.putKeyBackup`: a device's keys as the browser sealed them with the passphrase. */
export const ZPutKeyBackupInput = z.strictObject({
  meshId: z.uuid(),
  memberId: z.uuid(),
  sealed: z
    .string()
    .min(1)
    .max(KEY_BACKUP_MAX_CHARS)
    .regex(/^[A-Za-z0-9_-]+$/, { error: "must be base64url" }),
});
export type TPutKeyBackupInput = z.output<typeof ZPutKeyBackupInput>;

/** Input of `my.keyBackup`: the sealed keys of one device of the person. */
export const ZKeyBackupInput = z.strictObject({ meshId: z.uuid(), memberId: z.uuid() });
export type TKeyBackupInput = z.output<typeof ZKeyBackupInput>;
