import type { ServiceContext } from "../context";
import { createInviteToken, formatInviteExpiry } from "@/server/core/invites";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { roleOfUser } from "../meshes/member-roles";
import { type TCreateInviteInput } from "./create-invite.schema";
import { newInviteCode } from "./invite-code";
import { joinLinks, shortJoinUrl } from "./join-links";

/** How far past the asked expiry an invite may be moved to get a token of its own: an hour of seconds. */
const MAX_EXPIRY_SHIFT_MS = 3_600_000;

/** An invite of the mesh already holds the token this expiry signs to. */
class TokenTaken extends Error {
  constructor(
    readonly expiry: number,
    override readonly cause: unknown,
  ) {
    super("invite token taken");
  }
}

/**
 * Issues a signed invite and its short link. The mesh owner may grant admin, member or observer; a mesh admin may grant
 * member or observer; nobody else may invite, and an archived mesh takes no invites.
 */
export async function createInvite(ctx: ServiceContext<UserActor>, input: TCreateInviteInput) {
  const now = ctx.now();
  const mesh = await ctx.db.mesh.findFirst({
    where: {
      id: input.meshId,
      OR: [{ ownerUserId: ctx.actor.userId }, { members: { some: { userId: ctx.actor.userId, revokedAt: null } } }],
    },
    select: {
      id: true,
      slug: true,
      ownerUserId: true,
      ownerPubkey: true,
      ownerSecretKeyEnc: true,
      rootKeyEnc: true,
      archivedAt: true,
      members: { where: { userId: ctx.actor.userId, revokedAt: null }, select: { role: true } },
    },
  });
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const role = roleOfUser(
    mesh.ownerUserId === ctx.actor.userId,
    mesh.members.map((m) => m.role),
    undefined,
  );
  if (role !== "owner" && role !== "admin") throw new AppError("FORBIDDEN", "invite_not_allowed");
  if (role === "admin" && input.role === "admin") throw new AppError("FORBIDDEN", "role_not_allowed");
  if (mesh.archivedAt) throw new AppError("CONFLICT", "mesh_archived");

  const secretKey = ctx.sealer.open(mesh.ownerSecretKeyEnc, `mesh:${mesh.id}:owner-secret-key`);
  const rootKey = ctx.sealer.open(mesh.rootKeyEnc, `mesh:${mesh.id}:root-key`);
  const firstExpiry = Math.floor((now.getTime() + input.expiresInHours * 3_600_000) / 1000) * 1000;
  const id = uuidv7();
  // The short link's code: shown now and, sealed, on the mesh page while the invite is valid.
  const { code, shortCodeHash, shortCodeEnc } = newInviteCode(ctx.sealer, id);
  try {
    // Ed25519 signatures are deterministic and the payload has no nonce (Document 3 fixes its fields):
    // two invites alike in every field would share a token. So the mesh's invites are made one at a time
    // (a transaction-scoped advisory lock per mesh) and this one takes the first second, from the asked
    // expiry on, that no invite of the mesh with this role holds already. A row whose expiry was changed
    // after its token was signed can still hold a token: that second is then skipped on the next try.
    const skipped = new Set<number>();
    const attempt = () =>
      ctx.db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`invite:${mesh.id}`}, 0))`;
        const taken = await tx.invite.findMany({
          where: {
            meshId: mesh.id,
            role: input.role,
            expiresAt: { gte: new Date(firstExpiry), lt: new Date(firstExpiry + MAX_EXPIRY_SHIFT_MS) },
          },
          select: { expiresAt: true },
        });
        const takenSeconds = new Set(taken.map((invite) => invite.expiresAt.getTime()));
        let expiry = firstExpiry;
        while (takenSeconds.has(expiry) || skipped.has(expiry)) expiry += 1000;
        if (expiry >= firstExpiry + MAX_EXPIRY_SHIFT_MS)
          throw new AppError(
            "rate_limited",
            "this mesh has an invite with this role for every second of the next hour",
          );
        const expiresAt = new Date(expiry);
        const { token } = createInviteToken(
          {
            v: 1,
            mesh_id: mesh.id,
            mesh_slug: mesh.slug,
            broker_url: ctx.settings.brokerUrl,
            expires_at: formatInviteExpiry(expiresAt),
            mesh_root_key: rootKey.toString("base64url"),
            role: input.role,
            owner_pubkey: mesh.ownerPubkey,
          },
          new Uint8Array(secretKey),
        );
        await tx.invite
          .create({
            data: {
              id,
              token,
              meshId: mesh.id,
              createdByUserId: ctx.actor.userId,
              role: input.role,
              expiresAt,
              maxUses: input.maxUses,
              shortCodeHash,
              shortCodeEnc,
            },
          })
          .catch((error: unknown) => {
            throw isUniqueViolation(error) ? new TokenTaken(expiry, error) : error;
          });
        await recordAudit(tx, {
          meshId: mesh.id,
          type: "invite_created",
          actorUserId: ctx.actor.userId,
          metadata: { inviteId: id, role: input.role, maxUses: input.maxUses, expiresAt: expiresAt.toISOString() },
        });
        return { expiresAt, token };
      });
    let made: Awaited<ReturnType<typeof attempt>> | undefined;
    for (let tries = 0; !made; tries++) {
      try {
        made = await attempt();
      } catch (error) {
        const second = error instanceof TokenTaken ? error.expiry : undefined;
        if (second === undefined || tries >= 5) throw error instanceof TokenTaken ? error.cause : error;
        skipped.add(second);
      }
    }
    return {
      inviteId: id,
      expiresAt: made.expiresAt,
      ...joinLinks(ctx.settings.publicBaseUrl, made.token),
      shortUrl: shortJoinUrl(ctx.settings.publicBaseUrl, code),
      token: made.token,
    };
  } finally {
    secretKey.fill(0);
    rootKey.fill(0);
  }
}
