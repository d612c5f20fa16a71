// Who is online in a mesh, counted as people (docs/mesh-api.md, "Who is online"): one definition for the
// live page and the home page, so the two never disagree.
import { Prisma } from "@/server/core/db";
import type { ServiceContext } from "../context";

/**
 * The person a member (row `m`) counts as: its user, for every member of a signed-in person (the browser
 * membership, browser devices, command-line devices, and their session members, which carry their
 * parent's user); else the anonymous peer itself, its session members counting with their parent.
 * Tagged, so a user id and a member id never stand for the same person.
 */
const PERSON_OF_MEMBER = Prisma.sql`CASE WHEN m.user_id IS NOT NULL THEN 'u:' || m.user_id
  ELSE 'm:' || coalesce(m.parent_member_id, m.id)::text END`;

/**
 * One row, `people` and `online`, for the mesh whose id is the SQL expression `meshId`: the distinct
 * people among its live (not revoked) members, and those of them with at least one member holding a live
 * presence (a connection open on some broker node: `disconnected_at` null). Usable as a LATERAL subquery.
 */
export function peopleOnlineSql(meshId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT count(DISTINCT ${PERSON_OF_MEMBER})::int AS people,
           (count(DISTINCT ${PERSON_OF_MEMBER}) FILTER (WHERE EXISTS (
             SELECT 1 FROM presences p WHERE p.member_id = m.id AND p.disconnected_at IS NULL
           )))::int AS online
    FROM members m WHERE m.mesh_id = ${meshId} AND m.revoked_at IS NULL`;
}

/** People and people online of one mesh; the caller has checked that the actor may see it. */
export async function countPeopleOnline(
  ctx: ServiceContext,
  input: { meshId: string },
): Promise<{ people: number; online: number }> {
  const [row] = await ctx.db.$queryRaw<{ people: number; online: number }[]>(
    peopleOnlineSql(Prisma.sql`${input.meshId}::uuid`),
  );
  return { people: row?.people ?? 0, online: row?.online ?? 0 };
}
