import type pg from "pg";
import type { ConnectionRegistry } from "../ws/registry";
import { announceEpoch, type MeshEvents } from "./events";

const CHUNK = 5_000;

/**
 * Brings this node's open connections in line with the member rows: a member removed or a mesh
 * archived while this node was not listening (the database blinked, the notification was missed) is
 * closed as the notification would have; roles and key epochs are refreshed; presences of this node
 * without a connection (older than a minute) are closed. One indexed read per
 * 5,000 connected members. Returns how many connections it closed.
 */
export async function reconcileMembership(
  pool: pg.Pool,
  registry: ConnectionRegistry,
  events: MeshEvents,
  nodeId: string,
): Promise<number> {
  const conns = [...registry.all()];
  const ids = [...new Set(conns.map((c) => c.memberId))];
  const rows = new Map<string, { role: string; revoked: boolean; archived: boolean; key_epoch: number }>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows: chunk } = await pool.query<{
      id: string;
      role: string;
      revoked: boolean;
      archived: boolean;
      key_epoch: number;
    }>(
      `SELECT m.id::text, m.role::text, m.revoked_at IS NOT NULL AS revoked, ms.archived_at IS NOT NULL AS archived, ms.key_epoch
       FROM members m JOIN meshes ms ON ms.id = m.mesh_id WHERE m.id = ANY($1::uuid[])`,
      [ids.slice(i, i + CHUNK)],
    );
    for (const row of chunk) rows.set(row.id, row);
  }
  let closed = 0;
  // Presences this node recorded for connections it no longer holds (a handshake that never finished):
  // they would hold slots of their mesh's cap while this node keeps refreshing them.
  await pool.query(
    `UPDATE presences SET disconnected_at = now() AT TIME ZONE 'UTC'
     WHERE node_id = $1 AND disconnected_at IS NULL AND connected_at < (now() AT TIME ZONE 'UTC') - interval '60 seconds'
       AND NOT (connection_id = ANY($2::text[]))`,
    [nodeId, conns.map((c) => c.id)],
  );
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
