import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import { registerUser } from "./register-user";
import type { TSignUpInput } from "./register-user.schema";

/**
 * Sign-up without account enumeration: creates the account when the address is free; when it is
 * taken, creates nothing and changes nothing. Either way the caller learns nothing (no error, the same
 * work: a password hash and one insert), and answers every sign-up the same way.
 */
export async function signUp(ctx: ServiceContext<VisitorActor>, input: TSignUpInput): Promise<void> {
  try {
    await registerUser(ctx, input);
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") return;
    throw error;
  }
}
