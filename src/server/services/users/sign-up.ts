import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import { registerUser } from "./register-user";
import type { TSignUpInput } from "./register-user.schema";

/**
 * Sign-up without account enumeration: creates the account when the address is free; when it is
 * taken, creates nothing and changes nothing. Either way the caller learns nothing (no error, the same
 * work: a password hash and one insert). Returns the new account, or null when the address was taken:
 * the sign-up form signs a new account in at once and mails its verification link, and mails the owner
 * of a taken address a notice (docs/security.md, "E-mail").
 */
export async function signUp(
  ctx: ServiceContext<VisitorActor>,
  input: TSignUpInput,
): Promise<{ id: string; email: string } | null> {
  try {
    const user = await registerUser(ctx, input);
    return { id: user.id, email: user.email };
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") return null;
    throw error;
  }
}
