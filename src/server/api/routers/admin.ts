import { z } from "zod";
import { adminListAudit } from "@/server/services/admin/list-audit";
import { adminListInvites } from "@/server/services/admin/list-invites";
import { adminListMeshes } from "@/server/services/admin/list-meshes";
import { adminListSessions } from "@/server/services/admin/list-sessions";
import { adminMeshDetail } from "@/server/services/admin/mesh-detail";
import { ZAdminMeshesInput } from "@/server/services/admin/list-meshes.schema";
import { ZAdminSessionsInput } from "@/server/services/admin/list-sessions.schema";
import { ZAdminInvitesInput } from "@/server/services/admin/list-invites.schema";
import { ZAdminAuditInput } from "@/server/services/admin/list-audit.schema";
import { adminMeshSummary } from "@/server/services/admin/summary";
import { ZMeshIdInput } from "@/server/services/meshes/schemas";
import { adminProcedure, createTRPCRouter } from "../trpc";
import { ZHomeEngineOut } from "@/server/services/home/home-overview.schema";
import { recentEngineActivity } from "@/server/services/home/recent-engine-activity";
import {
  ZAdminAuditOut,
  ZAdminInvitesOut,
  ZAdminMeshOut,
  ZAdminMeshesOut,
  ZAdminSessionsOut,
  ZAdminSummaryOut,
} from "../outputs/admin";

const rest = (path: `/${string}`, summary: string) => ({
  openapi: { method: "GET" as const, path, summary, tags: ["admin"], protect: true },
});

/** Read-only administration (Document 3, router admin): administrators only, FORBIDDEN for others. */
export const adminRouter = createTRPCRouter({
  meshes: adminProcedure
    .meta(rest("/admin/meshes", "All meshes with owner and member count"))
    .input(ZAdminMeshesInput)
    .output(ZAdminMeshesOut)
    .query(({ ctx, input }) => adminListMeshes(ctx.service, input)),
  mesh: adminProcedure
    .meta(rest("/admin/meshes/{meshId}", "One mesh in full; mesh is null when absent"))
    .input(ZMeshIdInput)
    .output(ZAdminMeshOut)
    .query(({ ctx, input }) => adminMeshDetail(ctx.service, input)),
  sessions: adminProcedure
    .meta(rest("/admin/sessions", "Presences across all meshes"))
    .input(ZAdminSessionsInput)
    .output(ZAdminSessionsOut)
    .query(({ ctx, input }) => adminListSessions(ctx.service, input)),
  invites: adminProcedure
    .meta(rest("/admin/invites", "Invites with mesh and creator"))
    .input(ZAdminInvitesInput)
    .output(ZAdminInvitesOut)
    .query(({ ctx, input }) => adminListInvites(ctx.service, input)),
  audit: adminProcedure
    .meta(rest("/admin/audit", "The audit log"))
    .input(ZAdminAuditInput)
    .output(ZAdminAuditOut)
    .query(({ ctx, input }) => adminListAudit(ctx.service, input)),
  summary: adminProcedure
    .meta(rest("/admin/summary/mesh", "Mesh summary counts"))
    .input(z.void())
    .output(ZAdminSummaryOut)
    .query(({ ctx }) => adminMeshSummary(ctx.service)),
  // The home page's newest jobs and pipeline runs (the engine's REST lists have them all).
  homeEngine: adminProcedure
    .meta(rest("/admin/home/engine", "The five newest jobs and pipeline runs (the home page's overview)"))
    .input(z.void())
    .output(ZHomeEngineOut)
    .query(({ ctx }) => recentEngineActivity(ctx.service)),
});
