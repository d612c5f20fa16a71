import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";
import type { Prisma } from "@/server/core/db";
import { inviteState } from "../invites/invite-state";
import { readPage } from "../paging";
import { type TAdminInvitesInput } from "./list-invites.schema";
import { inviteSummarySelect } from "../selects";
import { containsText, containsLower } from "@/server/core/text-search";

/** Invites joined to mesh and creating user; filters revoked and expired. Tokens are never listed. */
export async function adminListInvites(ctx: ServiceContext<AdministratorActor>, input: TAdminInvitesInput) {
  const now = ctx.now();
  const where: Prisma.InviteWhereInput = {
    ...(input.revoked ? { revokedAt: input.revoked === "yes" ? { not: null } : null } : {}),
    ...(input.expired ? { expiresAt: input.expired === "yes" ? { lte: now } : { gt: now } } : {}),
    ...(input.q
      ? {
          OR: [{ mesh: { slug: containsLower(input.q) } }, { createdBy: { email: containsText(input.q) } }],
        }
      : {}),
  };
  const page = await readPage(
    input,
    () => ctx.db.invite.count({ where }),
    (window) =>
      ctx.db.invite.findMany({
        where,
        orderBy: [{ [input.sort]: input.dir }, { id: input.dir }],
        ...window,
        select: {
          ...inviteSummarySelect,
          mesh: { select: { id: true, slug: true, name: true } },
          createdBy: { select: { id: true, name: true, email: true } },
        },
      }),
  );
  return { ...page, items: page.items.map((i) => ({ ...i, state: inviteState(i, now) })) };
}
