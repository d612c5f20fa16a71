import type { Db } from "@/server/core/db";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import { hashPassword } from "@/server/core/password";
import { ZSignUpInput, type TSignUpInput } from "./schemas";

/** Creates an account with an e-mail and a password (stored only as an scrypt hash). */
export async function registerUser(db: Db, input: TSignUpInput): Promise<{ id: string; email: string; name: string }> {
  const data = ZSignUpInput.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    const user = await db.user.create({
      data: { email: data.email, name: data.name, passwordHash },
      select: { id: true, email: true, name: true },
    });
    return { id: user.id, email: user.email ?? data.email, name: user.name ?? data.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "email_taken", { field: "email" });
    throw error;
  }
}
