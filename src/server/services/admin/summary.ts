import type { Db } from "@/server/core/db";

/** The admin mesh summary: meshes, activeMeshes, totalPresences, activePresences, messages24h. */
export async function adminMeshSummary(db: Db, now: Date = new Date()) {
  const since = new Date(now.getTime() - 24 * 3_600_000);
  const [meshes, activeMeshes, totalPresences, activePresences, messages24h] = await Promise.all([
    db.mesh.count(),
    db.mesh.count({ where: { archivedAt: null } }),
    db.presence.count(),
    db.presence.count({ where: { disconnectedAt: null } }),
    db.auditEvent.count({ where: { eventType: "message_sent", createdAt: { gte: since } } }),
  ]);
  return { meshes, activeMeshes, totalPresences, activePresences, messages24h };
}
