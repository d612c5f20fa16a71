import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { ApiScope } from "@/generated/prisma/enums";
import { sha256Hex } from "@/server/core/crypto/hash";
import { AppError } from "@/server/core/errors";
import { readPage } from "../paging";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import type { ReviewActor } from "./access";
import { generateWebhookSecret } from "./callbacks/signing";
import { secretAad } from "./callbacks/secrets";
import type { TCreateApiKeyInput, ZListApiKeysInput } from "./api-keys.schema";
import type { TApiScope } from "./schemas";
import { containsText, likeLiteral } from "@/server/core/text-search";

// API keys: "rk_" + 8 characters (the prefix, shown in lists) + "_" + 32 random bytes (base64url).
// Only the SHA-256 of the whole key is stored; the key and the callback signing secret are shown once.

const toDb = (s: TApiScope): ApiScope =>
  s === "jobs:read" ? "jobs_read" : s === "jobs:write" ? "jobs_write" : "admin";
export const scopeFromDb = (s: ApiScope): TApiScope =>
  s === "jobs_read" ? "jobs:read" : s === "jobs_write" ? "jobs:write" : "admin";

/** SHA-256 (hex) of a presented key. */
export const hashApiKey = (key: string) => sha256Hex(key);

const KEY_SHAPE = /^rk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/;
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

function newKey(): { key: string; prefix: string } {
  const bytes = randomBytes(8);
  const id = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  const prefix = `rk_${id}`;
  return { key: `${prefix}_${randomBytes(32).toString("base64url")}`, prefix };
}

type Row = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  rateLimitPerMinute: number | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
};
const toOut = (r: Row) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes.map(scopeFromDb),
  rate_limit_per_minute: r.rateLimitPerMinute,
  last_used_at: r.lastUsedAt,
  revoked_at: r.revokedAt,
  expires_at: r.expiresAt,
  created_at: r.createdAt,
});

/**
 * Creates a key (by an administrator, a key with the admin scope, or the system for the script; the
 * administrator is its creator); the answer is the only place the key appears.
 */
export async function createApiKey(ctx: ServiceContext<ReviewActor>, input: TCreateApiKeyInput) {
  const { db, sealer, actor } = ctx;
  const createdByUserId = actor.kind === "administrator" ? actor.userId : null;
  const { key, prefix } = newKey();
  const callbackSecret = generateWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        name: input.name,
        prefix,
        keyHash: hashApiKey(key),
        scopes: [...new Set(input.scopes)].map(toDb),
        rateLimitPerMinute: input.rate_limit_per_minute ?? null,
        expiresAt: input.expires_at ?? null,
        createdByUserId,
      },
    });
    return tx.apiKey.update({
      where: { id: created.id },
      data: { callbackSecretEnc: sealer.seal(callbackSecret, secretAad.apiKey(created.id)) },
    });
  });
  return { ...toOut(row), key, callback_secret: callbackSecret };
}

/** One page of keys (never their hashes), newest first. */
export function listApiKeys(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZListApiKeysInput>) {
  const { db } = ctx;
  const where = {
    ...(input.q ? { OR: [{ name: containsText(input.q) }, { prefix: { startsWith: likeLiteral(input.q) } }] } : {}),
    ...(input.revoked === "yes" ? { revokedAt: { not: null } } : input.revoked === "no" ? { revokedAt: null } : {}),
  };
  return readPage(
    input,
    () => db.apiKey.count({ where }),
    async (w) => (await db.apiKey.findMany({ where, orderBy: { createdAt: "desc" }, ...w })).map(toOut),
  );
}

/** Revokes a key at once (its next request gets 401); revoking twice is harmless. */
export async function revokeApiKey(ctx: ServiceContext<ReviewActor>, input: { id: string }) {
  const { db } = ctx;
  const { id } = input;
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) throw new AppError("NOT_FOUND", "api_key_not_found");
  const updated = row.revokedAt ? row : await db.apiKey.update({ where: { id }, data: { revokedAt: ctx.now() } });
  return toOut(updated);
}

/** The key behind a request, as services see it. */
export interface ApiKeyPrincipal {
  id: string;
  scopes: TApiScope[];
  rateLimitPerMinute: number | null;
}

/** Finds a live key by its hash (null for unknown, revoked or expired) and notes its last use (at most once a minute). */
export async function authenticateApiKey(
  ctx: ServiceContext<SystemActor>,
  input: { key: string },
): Promise<ApiKeyPrincipal | null> {
  const { db } = ctx;
  const presented = input.key;
  if (!KEY_SHAPE.test(presented)) return null;
  const row = await db.apiKey.findUnique({
    where: { keyHash: hashApiKey(presented) },
    select: { id: true, scopes: true, rateLimitPerMinute: true, revokedAt: true, expiresAt: true, lastUsedAt: true },
  });
  const now = ctx.now();
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.id, scopes: row.scopes.map(scopeFromDb), rateLimitPerMinute: row.rateLimitPerMinute };
}
