import type pg from "pg";
import type { ConnectionRegistry } from "../ws/registry";
import { announceEpoch, type MeshEvents } from "./events";

const CHUNK = 5_000;

/**
 * Brings this node's open connections in line with the member rows: a member removed or a mesh
 * archived while this node was not listening (the database blinked, the notification was missed) is
 * closed as the notification would have; roles and key epochs are refreshed. One indexed read per
 * 5,000 connected members. Returns how many connections it closed.
 */
export async function reconcileMembership(pool: pg.Pool, registry: ConnectionRegistry, events: MeshEvents): Promise<number> {
  const conns = [...registry.all()];
  const ids = [...new Set(conns.map((c) => c.memberId))];
  const rows = new Map<string, { role: string; revoked: boolean; archived: boolean; key_epoch: number }>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows: chunk } = await pool.query<{ id: string; role: string; revoked: boolean; archived: boolean; key_epoch: number }>(
      `SELECT m.id::text, m.role::text, m.revoked_at IS NOT NULL AS revoked, ms.archived_at IS NOT NULL AS archived, ms.key_epoch
       FROM members m JOIN meshes ms ON ms.id = m.mesh_id WHERE m.id = ANY($1::uuid[])`,
      [ids.slice(i, i + CHUNK)],
    );
    for (const row of chunk) rows.set(row.id, row);
  }
  let closed = 0;
  for (const conn of conns) {
    const row = rows.get(conn.memberId);
    if (!row || row.revoked || row.archived) {
      events.endConnection(conn, row?.archived ? "mesh_archived" : "removed");
      closed += 1;
      continue;
    }
    conn.role = row.role;
    announceEpoch(conn, row.key_epoch);
  }
  return closed;
}
