import { Prisma } from "@/server/core/db";
import type { ServiceContext } from "../context";
import type { UserActor } from "../actor";
import { roleOfUser } from "../meshes/member-roles";
import { peopleOnlineSql } from "../meshes/people-online";
import { type THomeMeshesInput, type THomeMeshesOut } from "./home-overview.schema";

interface Row {
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  isOwner: boolean;
  roles: string[] | null;
  online: number;
  people: number;
  total: number;
}

/**
 * The home page's meshes: those the actor owns or belongs to (the rule of meshes/access.ts, inside the
 * query), live ones first, the most people online first, then the newest; at most `limit`, with the
 * number of all of them. People and people online are counted as on the live page (meshes/people-online.ts).
 */
export async function listHomeMeshes(ctx: ServiceContext<UserActor>, input: THomeMeshesInput): Promise<THomeMeshesOut> {
  const { limit } = input;
  // The visible meshes first (two index lookups), so the counts below are made for those only.
  const rows = await ctx.db.$queryRaw<Row[]>`
    WITH visible AS (
      SELECT id AS mesh_id FROM meshes WHERE owner_user_id = ${ctx.actor.userId}
      UNION
      SELECT mesh_id FROM members WHERE user_id = ${ctx.actor.userId} AND revoked_at IS NULL
    )
    SELECT ms.id, ms.name, ms.slug, ms.archived_at IS NOT NULL AS archived,
           ms.owner_user_id = ${ctx.actor.userId} AS "isOwner", c.online, c.people,
           (SELECT array_agg(m.role::text) FROM members m
            WHERE m.mesh_id = ms.id AND m.user_id = ${ctx.actor.userId} AND m.revoked_at IS NULL) AS roles,
           count(*) OVER ()::int AS total
    FROM visible v
    JOIN meshes ms ON ms.id = v.mesh_id
    CROSS JOIN LATERAL (${peopleOnlineSql(Prisma.sql`ms.id`)}) c
    ORDER BY ms.archived_at IS NULL DESC, c.online DESC, ms.created_at DESC, ms.id DESC
    LIMIT ${limit}`;
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(({ roles, total: _total, ...mesh }) => ({
      ...mesh,
      myRole: roleOfUser(mesh.isOwner, (roles ?? []) as ("admin" | "member" | "observer")[], "member" as const),
    })),
  };
}
