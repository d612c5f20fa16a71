import { z } from "zod";
import { ZPageInput } from "../meshes/schemas";
import { ADMIN_SESSION_SORTS, ZSearch, ZSortDir } from "./schemas";

export const ZAdminSessionsInput = ZPageInput.extend({
  q: ZSearch,
  status: z.enum(["active", "disconnected"]).optional(),
  sort: z.enum(ADMIN_SESSION_SORTS).default("connectedAt"),
  dir: ZSortDir,
});

export type TAdminSessionsInput = z.output<typeof ZAdminSessionsInput>;
