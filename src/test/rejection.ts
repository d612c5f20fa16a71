import { expect } from "vitest";

/**
 * What `promise` rejects with, checked to be a `type` (the test fails when the promise resolves, or
 * rejects with anything else).
 */
export async function rejectionOf<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) throw new Error("the promise resolved; a rejection was expected");
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}
