import { expect } from "vitest";
import { TRPCError } from "@trpc/server";

/**
 * What `promise` rejects with, checked to be a `type` (the test fails when the promise resolves, or
 * rejects with anything else).
 */
export async function rejectionOf<E>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) throw new Error("the promise resolved; a rejection was expected");
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}

/**
 * How a tRPC call ended, as one string to compare: "OK", "CODE:message" (`withMessage`, the default) or
 * "CODE"; anything but a TRPCError is "unexpected …" (so the comparison fails and says why).
 */
export async function trpcOutcome(p: Promise<unknown>, withMessage = true): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (error) {
    if (!(error instanceof TRPCError)) return `unexpected ${String(error)}`;
    return withMessage ? `${error.code}:${error.message}` : error.code;
  }
}
