import { createHash } from "node:crypto";
import superjson from "superjson";
import type { Db, Prisma } from "@/server/core/db";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import type { Tx } from "./job-states";

/** How long a key is remembered; an older key is forgotten and may be used again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyRequest {
  apiKeyId: string;
  key: string;
  /** Names the operation, so one key cannot be replayed on another endpoint. */
  operation: string;
  input: unknown;
}

const hashOf = (operation: string, input: unknown) =>
  createHash("sha256")
    .update(operation)
    .update("\n")
    .update(JSON.stringify(superjson.serialize(input)))
    .digest("hex");

async function replay<T>(
  db: Db,
  req: IdempotencyRequest,
  requestHash: string,
): Promise<{ value: T; replayed: true } | null> {
  const row = await db.idempotencyKey.findUnique({ where: { apiKeyId_key: { apiKeyId: req.apiKeyId, key: req.key } } });
  if (!row) return null;
  if (Date.now() - row.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
    await db.idempotencyKey.deleteMany({ where: { id: row.id, createdAt: row.createdAt } });
    return null;
  }
  if (row.requestHash !== requestHash)
    throw new AppError("CONFLICT", "idempotency_key_reused", { idempotency_key: req.key });
  return { value: superjson.deserialize(row.responseBody as never) as T, replayed: true };
}

/**
 * Runs `create` once per (API key, Idempotency-Key): the key's row is inserted in the same transaction
 * as what `create` writes, so a concurrent retry waits for the first and then replays its answer.
 * The same key with another body (or on another operation) gives 409 idempotency_key_reused.
 * `atomic`: `create` writes in one statement, so without a key it runs outside a transaction.
 */
export async function withIdempotency<T>(
  db: Db,
  req: IdempotencyRequest | null,
  create: (tx: Tx) => Promise<T>,
  options: { atomic?: boolean } = {},
): Promise<{ value: T; replayed: boolean }> {
  // Without a key, a `create` that is one statement (atomic) needs no transaction around it.
  if (!req)
    return {
      value: options.atomic ? await create(db) : await db.$transaction(create, { timeout: 60_000 }),
      replayed: false,
    };
  if (!KEY.test(req.key)) throw new AppError("BAD_REQUEST", "invalid_idempotency_key");
  const requestHash = hashOf(req.operation, req.input);
  const earlier = await replay<T>(db, req, requestHash);
  if (earlier) return earlier;
  try {
    const value = await db.$transaction(
      async (tx) => {
        const row = await tx.idempotencyKey.create({ data: { apiKeyId: req.apiKeyId, key: req.key, requestHash } });
        const result = await create(tx);
        await tx.idempotencyKey.update({
          where: { id: row.id },
          data: { responseStatus: 201, responseBody: superjson.serialize(result) as unknown as Prisma.InputJsonValue },
        });
        return result;
      },
      { timeout: 60_000 },
    );
    return { value, replayed: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const again = await replay<T>(db, req, requestHash);
    if (again) return again;
    throw new AppError("CONFLICT", "idempotency_key_in_progress", { idempotency_key: req.key });
  }
}
