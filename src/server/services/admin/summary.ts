import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";

/** The admin mesh summary: meshes, activeMeshes, totalPresences, activePresences, messages24h. */
export async function adminMeshSummary(ctx: ServiceContext<AdministratorActor>) {
  const now = ctx.now();
  const since = new Date(now.getTime() - 24 * 3_600_000);
  const [meshes, activeMeshes, totalPresences, activePresences, messages24h] = await Promise.all([
    ctx.db.mesh.count(),
    ctx.db.mesh.count({ where: { archivedAt: null } }),
    ctx.db.presence.count(),
    ctx.db.presence.count({ where: { disconnectedAt: null } }),
    ctx.db.auditEvent.count({ where: { eventType: "message_sent", createdAt: { gte: since } } }),
  ]);
  return { meshes, activeMeshes, totalPresences, activePresences, messages24h };
}
