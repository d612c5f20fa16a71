import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "@/server/core/password";
import { ZSignInInput } from "./authenticate.schema";

/**
 * Checks an e-mail and password. Returns the user, or null for any mismatch (unknown e-mail, no
 * password set, wrong password) after the same amount of work, so callers answer one generic error.
 * A right password stored at an older, cheaper cost is stored again at the current one.
 */
export async function authenticate(
  ctx: ServiceContext<VisitorActor>,
  input: unknown,
): Promise<{ id: string; email: string; name: string | null } | null> {
  const parsed = ZSignInInput.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const user = await ctx.db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  if (!user?.passwordHash) {
    await burnPasswordCheck(password);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  if (needsRehash(user.passwordHash)) {
    // Guarded on the old hash: a password changed meanwhile is not overwritten.
    await ctx.db.user.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: { passwordHash: await hashPassword(password) },
    });
  }
  return { id: user.id, email: user.email ?? email, name: user.name };
}
