import { z } from "zod";
import { INVITE_GRANTABLE_ROLES } from "@/server/core/invites/invite-schema";
import { ZMeshId } from "../meshes/schemas";

export const ZCreateInviteInput = z.object({
  meshId: ZMeshId,
  role: z.enum(INVITE_GRANTABLE_ROLES).default("member"),
  /** Hours until the invite expires: 1 hour to 30 days. */
  expiresInHours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24 * 7),
  /** Use cap; null for no cap. */
  maxUses: z.coerce.number().int().min(1).max(10_000).nullable().default(null),
});

export type TCreateInviteInput = z.output<typeof ZCreateInviteInput>;
