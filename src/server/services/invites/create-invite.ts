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
  try {
    // Ed25519 signatures are deterministic and the payload has no nonce (Document 3 fixes its fields):
    // two invites alike in every field would share a token. The later one expires a second later (and
    // a fresh short code comes with each attempt, though two alike among 2^80 will not happen).
    for (let attempt = 0; ; attempt++) {
      const expiresAt = new Date(firstExpiry + attempt * 1000);
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
      // The short link's code: shown now and, sealed, on the mesh page while the invite is valid.
      const { code, shortCodeHash, shortCodeEnc } = newInviteCode(ctx.sealer, id);
      try {
        await ctx.db.$transaction(async (tx) => {
          await tx.invite.create({
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
          });
          await recordAudit(tx, {
            meshId: mesh.id,
            type: "invite_created",
            actorUserId: ctx.actor.userId,
            metadata: { inviteId: id, role: input.role, maxUses: input.maxUses, expiresAt: expiresAt.toISOString() },
          });
        });
        return {
          inviteId: id,
          expiresAt,
          ...joinLinks(ctx.settings.publicBaseUrl, token),
          shortUrl: shortJoinUrl(ctx.settings.publicBaseUrl, code),
          token,
        };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 30) throw error;
      }
    }
  } finally {
    secretKey.fill(0);
    rootKey.fill(0);
  }
}
