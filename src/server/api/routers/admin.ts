import { adminListAudit } from "@/server/services/admin/list-audit";
import { adminListInvites } from "@/server/services/admin/list-invites";
import { adminListMeshes } from "@/server/services/admin/list-meshes";
import { adminListSessions } from "@/server/services/admin/list-sessions";
import { adminMeshDetail } from "@/server/services/admin/mesh-detail";
import { ZAdminAuditInput, ZAdminInvitesInput, ZAdminMeshesInput, ZAdminSessionsInput } from "@/server/services/admin/schemas";
import { adminMeshSummary } from "@/server/services/admin/summary";
import { ZMeshIdInput } from "@/server/services/meshes/schemas";
import { adminProcedure, createTRPCRouter } from "../trpc";

/** Read-only administration (Document 3, router admin): administrators only, FORBIDDEN for others. */
export const adminRouter = createTRPCRouter({
  meshes: adminProcedure.input(ZAdminMeshesInput).query(({ ctx, input }) => adminListMeshes(ctx.db, input)),
  mesh: adminProcedure.input(ZMeshIdInput).query(({ ctx, input }) => adminMeshDetail(ctx.db, input)),
  sessions: adminProcedure.input(ZAdminSessionsInput).query(({ ctx, input }) => adminListSessions(ctx.db, input)),
  invites: adminProcedure.input(ZAdminInvitesInput).query(({ ctx, input }) => adminListInvites(ctx.db, input)),
  audit: adminProcedure.input(ZAdminAuditInput).query(({ ctx, input }) => adminListAudit(ctx.db, input)),
  summary: adminProcedure.query(({ ctx }) => adminMeshSummary(ctx.db)),
});
