import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { TUpdateProfileInput } from "./get-profile.schema";

/** The signed-in user's own profile. */
export async function getProfile(ctx: ServiceContext<UserActor>) {
  const user = await ctx.db.user.findUnique({
    where: { id: ctx.actor.userId },
    select: { id: true, name: true, email: true, image: true, createdAt: true },
  });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  return { ...user, isAdmin: ctx.actor.isAdmin };
}

/** Changes the signed-in user's display name. */
export async function updateProfile(ctx: ServiceContext<UserActor>, input: TUpdateProfileInput) {
  return ctx.db.user.update({
    where: { id: ctx.actor.userId },
    data: { name: input.name },
    select: { id: true, name: true, email: true },
  });
}
