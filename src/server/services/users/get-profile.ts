import type { Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { TUpdateProfileInput } from "./schemas";

/** The signed-in user's own profile. */
export async function getProfile(db: Db, actor: UserActor) {
  const user = await db.user.findUnique({
    where: { id: actor.userId },
    select: { id: true, name: true, email: true, image: true, createdAt: true },
  });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  return { ...user, isAdmin: actor.isAdmin };
}

/** Changes the signed-in user's display name. */
export async function updateProfile(db: Db, actor: UserActor, input: TUpdateProfileInput) {
  return db.user.update({
    where: { id: actor.userId },
    data: { name: input.name },
    select: { id: true, name: true, email: true },
  });
}
