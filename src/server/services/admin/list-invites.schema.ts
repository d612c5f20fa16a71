import { z } from "zod";
import { ZPageInput } from "../meshes/schemas";
import { ADMIN_INVITE_SORTS, ZSearch, ZSortDir } from "./schemas";

export const ZAdminInvitesInput = ZPageInput.extend({
  q: ZSearch,
  revoked: z.enum(["yes", "no"]).optional(),
  expired: z.enum(["yes", "no"]).optional(),
  sort: z.enum(ADMIN_INVITE_SORTS).default("createdAt"),
  dir: ZSortDir,
});

export type TAdminInvitesInput = z.output<typeof ZAdminInvitesInput>;
