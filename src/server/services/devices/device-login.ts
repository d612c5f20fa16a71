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
import { verifyPassword } from "@/server/core/password";
import type { CurrentSession } from "../account/my-sessions.schema";
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
/** A token unused this long expires; each use renews it (docs/cli.md, "How long a login lasts"). */
export const DEVICE_TOKEN_IDLE_MS = 30 * 24 * 60 * 60_000;
/** Used or not, a token expires this long after its login: then `mesh login` again. */
export const DEVICE_TOKEN_MAX_AGE_MS = 90 * 24 * 60 * 60_000;
/** A use renews the token (and marks it used) at most this often: one write a minute, not one per request. */
const DEVICE_TOKEN_USE_RESOLUTION_MS = 60_000;
/** Approving a login without the password again needs a browser session signed in this recently. */
export const DEVICE_APPROVAL_RECENT_SIGN_IN_MS = 5 * 60_000;

/** When a token used at `usedAt` expires: idle lifetime from that use, capped by its maximum age. */
export const deviceTokenExpiry = (createdAt: Date, usedAt: Date) =>
  new Date(Math.min(usedAt.getTime() + DEVICE_TOKEN_IDLE_MS, createdAt.getTime() + DEVICE_TOKEN_MAX_AGE_MS));

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
    await tx.deviceToken.create({
      data: {
        userId,
        tokenHash: sha256Hex(token),
        name: login.clientName,
        createdAt: now,
        expiresAt: deviceTokenExpiry(now, now),
      },
    });
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true, email: true } });
    return { status: "approved" as const, token, user };
  });
}

/**
 * What approving a login needs besides the session: `none` when the request's browser session signed
 * in within DEVICE_APPROVAL_RECENT_SIGN_IN_MS, else the account's password again (`password`), or, for
 * an account without one (OAuth only), a new sign-in (`sign_in`). A session stolen or left open long
 * after its sign-in thus cannot mint a command-line token on its own.
 */
export type ApprovalReauth = "none" | "password" | "sign_in";

async function approvalNeeds(ctx: ServiceContext<UserActor>, current: CurrentSession, now: Date) {
  const userId = ctx.actor.userId;
  const [session, user] = await Promise.all([
    current.sessionId
      ? ctx.db.session.findFirst({ where: { id: current.sessionId, userId }, select: { createdAt: true } })
      : null,
    ctx.db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } }),
  ]);
  const signedInAgo = session ? now.getTime() - session.createdAt.getTime() : Infinity;
  const reauth: ApprovalReauth =
    signedInAgo <= DEVICE_APPROVAL_RECENT_SIGN_IN_MS ? "none" : user?.passwordHash ? "password" : "sign_in";
  return { reauth, passwordHash: user?.passwordHash ?? null };
}

/** A pending login the signed-in person is about to confirm (NOT_FOUND for any other code). */
export async function describeDeviceLogin(
  ctx: ServiceContext<UserActor>,
  input: z.output<typeof ZUserCodeInput>,
  current: CurrentSession = {},
) {
  const now = ctx.now();
  const login = await pendingLogin(ctx.db, input.userCode, now);
  const { reauth } = await approvalNeeds(ctx, current, now);
  return {
    userCode: formatUserCode(login.code),
    clientName: login.clientName,
    createdAt: login.createdAt,
    expiresAt: login.expiresAt,
    reauth,
  };
}

/**
 * Approves (or denies) a pending login for the signed-in user. Approving needs a recent sign-in of the
 * request's session or the password (FORBIDDEN reauth_required without either, BAD_REQUEST
 * current_password_wrong for a wrong one; the caller limits password attempts like sign-in's);
 * denying needs nothing.
 */
export async function decideDeviceLogin(
  ctx: ServiceContext<UserActor>,
  input: z.output<typeof ZDecideDeviceLoginInput>,
  current: CurrentSession = {},
) {
  const now = ctx.now();
  const { userCode, approve, password } = input;
  const login = await pendingLogin(ctx.db, userCode, now);
  if (approve) {
    const { reauth, passwordHash } = await approvalNeeds(ctx, current, now);
    if (reauth === "sign_in" || (reauth === "password" && password === undefined))
      throw new AppError("FORBIDDEN", "reauth_required", { reauth });
    if (reauth === "password" && !(await verifyPassword(password ?? "", passwordHash ?? "")))
      throw new AppError("BAD_REQUEST", "current_password_wrong", { field: "password" });
  }
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

export type DeviceTokenCheck =
  | { ok: true; user: { userId: string; name: string | null; email: string | null } }
  | { ok: false; reason: "device_token_invalid" | "device_token_expired" };

/**
 * The user a device token stands for, or why not: `device_token_expired` past its expiry (its holder is
 * told to run mesh login again), `device_token_invalid` when unknown or ended (revoked, signed out).
 * A use renews the token's expiry (DEVICE_TOKEN_IDLE_MS, never past DEVICE_TOKEN_MAX_AGE_MS after the
 * login) and marks it used, at most once a minute.
 */
export async function checkDeviceToken(ctx: ServiceContext, input: { token: string }): Promise<DeviceTokenCheck> {
  const { db } = ctx;
  const { token } = input;
  const now = ctx.now();
  if (!token.startsWith(DEVICE_TOKEN_PREFIX) || token.length > 200)
    return { ok: false, reason: "device_token_invalid" };
  const row = await db.deviceToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      createdAt: true,
      expiresAt: true,
      user: { select: { id: true, name: true, email: true } },
    },
  });
  if (!row || row.revokedAt) return { ok: false, reason: "device_token_invalid" };
  if (row.expiresAt <= now) return { ok: false, reason: "device_token_expired" };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > DEVICE_TOKEN_USE_RESOLUTION_MS)
    // Guarded on the token still being live: a revocation that raced this use is not undone.
    await db.deviceToken.updateMany({
      where: { id: row.id, revokedAt: null, expiresAt: { gt: now } },
      data: { lastUsedAt: now, expiresAt: deviceTokenExpiry(row.createdAt, now) },
    });
  return { ok: true, user: { userId: row.user.id, name: row.user.name, email: row.user.email } };
}

/** The user a device token stands for (live, unexpired tokens only; renews it as checkDeviceToken does). */
export async function userOfDeviceToken(
  ctx: ServiceContext,
  input: { token: string },
): Promise<{ userId: string; name: string | null; email: string | null } | null> {
  const checked = await checkDeviceToken(ctx, input);
  return checked.ok ? checked.user : null;
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

/**
 * Logins expired more than a TTL ago (spent ones included), and tokens expired more than
 * DEVICE_TOKEN_IDLE_MS ago (a revoked token keeps its expiry, so it goes too): removed as new logins
 * start. Until then an expired token is still told apart (`device_token_expired`) from an unknown one.
 */
export async function sweepDeviceLogins(db: Db, now = new Date()): Promise<number> {
  const swept = await db.deviceAuthorization.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - DEVICE_LOGIN_TTL_MS) } },
  });
  const tokens = await db.deviceToken.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - DEVICE_TOKEN_IDLE_MS) } },
  });
  return swept.count + tokens.count;
}
