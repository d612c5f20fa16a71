import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import { hashPassword } from "@/server/core/password";
import { ZSignUpInput, type TSignUpInput } from "./register-user.schema";

/** Creates an account with an e-mail and a password (stored only as an scrypt hash). */
export async function registerUser(
  ctx: ServiceContext<VisitorActor>,
  input: TSignUpInput,
): Promise<{ id: string; email: string; name: string }> {
  // The one service that parses its input again: seeds and scripts call it with raw values too.
  const data = ZSignUpInput.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    const user = await ctx.db.user.create({
      data: { email: data.email, name: data.name, passwordHash },
      select: { id: true, email: true, name: true },
    });
    return { id: user.id, email: user.email ?? data.email, name: user.name ?? data.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "email_taken", { field: "email" });
    throw error;
  }
}
