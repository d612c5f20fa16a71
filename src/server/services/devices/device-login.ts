// `mesh login`: a command line gets a token for a user, RFC 8628 style (docs/cli.md, "mesh login"). The
// CLI asks for a device code and a short user code, shows the code and a page of the web app, and polls;
// the signed-in person confirms the code on that page; the next poll gets the token, once. Only hashes of
// the codes and the token are stored.
import type { ServiceContext } from "../context";
import { randomBytes, randomInt } from "node:crypto";
import { z } from "zod";
import { sha256Hex } from "@/server/core/crypto/hash";
import type { Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { UserActor, VisitorActor } from "../actor";
import {
  ZStartDeviceLoginInput,
  ZPollDeviceLoginInput,
  ZUserCodeInput,
  ZDecideDeviceLoginInput,
  ZDeviceTokenInput,
} from "./device-login.schema";

/** How long a login may wait for its approval. */
export const DEVICE_LOGIN_TTL_MS = 10 * 60_000;
/** Seconds between two polls; a faster poll is answered `slow_down`. */
export const DEVICE_POLL_INTERVAL_S = 5;
/** Consonants without look-alikes: no words, nothing to misread (RFC 8628, 6.1); 20^8 codes. */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;
/** Prefix of device tokens, so a leaked one is recognisable (and scanners can find it). */
export const DEVICE_TOKEN_PREFIX = "mdt_";

/** The code as stored: upper case, letters of the alphabet only ("bcdf-ghjk" and "BCDFGHJK" are one code). */
export function normaliseUserCode(raw: string): string | undefined {
  const code = raw.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return undefined;
  return code;
}

export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function newUserCode(): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** Starts a login: the device code (for the CLI only) and the user code (for the person). */
export async function startDeviceLogin(
  ctx: ServiceContext<VisitorActor>,
  input: z.output<typeof ZStartDeviceLoginInput>,
) {
  const now = ctx.now();
  const { clientName } = input;
  // Logins long past their expiry go as new ones come (an index on expires_at keeps this cheap).
  await sweepDeviceLogins(ctx.db, now);
  const deviceCode = randomBytes(32).toString("base64url");
  const userCode = newUserCode();
  await ctx.db.deviceAuthorization.create({
    data: {
      deviceCodeHash: sha256Hex(deviceCode),
      userCodeHash: sha256Hex(userCode),
      clientName,
      expiresAt: new Date(now.getTime() + DEVICE_LOGIN_TTL_MS),
    },
  });
  return {
    deviceCode,
    userCode: formatUserCode(userCode),
    expiresIn: DEVICE_LOGIN_TTL_MS / 1000,
    interval: DEVICE_POLL_INTERVAL_S,
  };
}

export type PollAnswer =
  | { status: "pending" | "slow_down" | "denied" | "expired" }
  | { status: "approved"; token: string; user: { name: string | null; email: string | null } };

/**
 * One poll of the CLI. `approved` comes once, with a new token; the login is then spent (a second
 * poll answers `expired`). A poll sooner than the interval after the last one answers `slow_down`.
 */
export async function pollDeviceLogin(
  ctx: ServiceContext<VisitorActor>,
  input: z.output<typeof ZPollDeviceLoginInput>,
): Promise<PollAnswer> {
  const now = ctx.now();
  const { deviceCode } = input;
  const login = await ctx.db.deviceAuthorization.findUnique({ where: { deviceCodeHash: sha256Hex(deviceCode) } });
  if (!login || login.status === "consumed" || login.expiresAt <= now) return { status: "expired" };
  if (login.status === "denied") return { status: "denied" };
  const early =
    login.lastPolledAt !== null && now.getTime() - login.lastPolledAt.getTime() < DEVICE_POLL_INTERVAL_S * 1000 - 500;
  await ctx.db.deviceAuthorization.update({ where: { id: login.id }, data: { lastPolledAt: now } });
  if (early) return { status: "slow_down" };
  if (login.status === "pending" || !login.userId) return { status: "pending" };
  const userId = login.userId;
  return ctx.db.$transaction(async (tx) => {
    // Spent by exactly one poll, whatever races.
    const spent = await tx.deviceAuthorization.updateMany({
      where: { id: login.id, status: "approved" },
      data: { status: "consumed" },
    });
    if (spent.count === 0) return { status: "expired" as const };
    const token = `${DEVICE_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    await tx.deviceToken.create({ data: { userId, tokenHash: sha256Hex(token), name: login.clientName } });
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true, email: true } });
    return { status: "approved" as const, token, user };
  });
}

/** A pending login the signed-in person is about to confirm (NOT_FOUND for any other code). */
export async function describeDeviceLogin(ctx: ServiceContext<UserActor>, input: z.output<typeof ZUserCodeInput>) {
  const now = ctx.now();
  const login = await pendingLogin(ctx.db, input.userCode, now);
  return {
    userCode: formatUserCode(login.code),
    clientName: login.clientName,
    createdAt: login.createdAt,
    expiresAt: login.expiresAt,
  };
}

/** Approves (or denies) a pending login for the signed-in user. */
export async function decideDeviceLogin(
  ctx: ServiceContext<UserActor>,
  input: z.output<typeof ZDecideDeviceLoginInput>,
) {
  const now = ctx.now();
  const { userCode, approve } = input;
  const login = await pendingLogin(ctx.db, userCode, now);
  const decided = await ctx.db.deviceAuthorization.updateMany({
    where: { id: login.id, status: "pending", expiresAt: { gt: now } },
    data: { status: approve ? "approved" : "denied", userId: ctx.actor.userId },
  });
  if (decided.count === 0) throw new AppError("NOT_FOUND", "device_code_not_found");
  return { userCode: formatUserCode(login.code), clientName: login.clientName, approved: approve };
}

async function pendingLogin(db: Db, rawCode: string, now: Date) {
  const code = normaliseUserCode(ZUserCodeInput.parse({ userCode: rawCode }).userCode);
  const login = code ? await db.deviceAuthorization.findUnique({ where: { userCodeHash: sha256Hex(code) } }) : null;
  if (!code || !login || login.status !== "pending" || login.expiresAt <= now)
    throw new AppError("NOT_FOUND", "device_code_not_found");
  return { ...login, code };
}

/** The user a device token stands for (live tokens only); marks it used. */
export async function userOfDeviceToken(
  ctx: ServiceContext,
  input: { token: string },
): Promise<{ userId: string; name: string | null; email: string | null } | null> {
  const { db } = ctx;
  const { token } = input;
  const now = ctx.now();
  if (!token.startsWith(DEVICE_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db.deviceToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, name: true, email: true } } },
  });
  if (!row || row.revokedAt) return null;
  // At most one write a minute per token.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000)
    await db.deviceToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  return { userId: row.user.id, name: row.user.name, email: row.user.email };
}

/** `mesh logout`: the token stops working. Answers the same whether or not it was live. */
export async function revokeDeviceToken(ctx: ServiceContext<VisitorActor>, input: z.output<typeof ZDeviceTokenInput>) {
  const now = ctx.now();
  const { token } = input;
  await ctx.db.deviceToken.updateMany({
    where: { tokenHash: sha256Hex(token), revokedAt: null },
    data: { revokedAt: now },
  });
  return { loggedOut: true as const };
}

/** Logins expired more than a TTL ago (spent ones included): removed as new logins start. */
export async function sweepDeviceLogins(db: Db, now = new Date()): Promise<number> {
  const swept = await db.deviceAuthorization.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - DEVICE_LOGIN_TTL_MS) } },
  });
  return swept.count;
}
