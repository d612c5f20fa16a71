import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** tRPC's own error codes (a type only: core stays free of runtime dependencies on the API layer). */
export type TrpcCode = TRPC_ERROR_CODE_KEY;

interface ErrorMapping {
  trpc: TrpcCode;
  http: number;
  /**
   * WebSocket close code (1000 normal, 1001 going away, 1003 unsupported data, 1006 no close frame, 1008
   * policy violation, 1009 too big, 1011 server error, 1013 try later, 4000-4999 ours, most mirroring an
   * HTTP status). Every close of the broker and the client goes through `closeWith` (broker/protocol/close.ts).
   */
  ws: number;
  /**
   * Whether a client should try again (reconnect after this close, send again after a wait) rather than
   * stop: false where the same client would be refused again until a person acts (its credentials, its
   * membership, its own malformed request). Rows that share a close code or an HTTP status agree.
   */
  retry: boolean;
}

/**
 * The one table of the product's error codes: each code's tRPC code, HTTP status, WebSocket close code
 * and retry flag. The upper-case codes are the general classes; the lower-case ones are refusals that
 * a spec or docs/protocol.md names, spelled exactly as they go on the wire (the broker's `/join` body's
 * `error.code`, a close reason, the error message of the web join), so no layer translates them.
 */
export const ERROR_MAP = {
  BAD_REQUEST: { trpc: "BAD_REQUEST", http: 400, ws: 4400, retry: false },
  UNAUTHORIZED: { trpc: "UNAUTHORIZED", http: 401, ws: 4401, retry: false },
  FORBIDDEN: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  NOT_FOUND: { trpc: "NOT_FOUND", http: 404, ws: 4404, retry: false },
  CONFLICT: { trpc: "CONFLICT", http: 409, ws: 4409, retry: false },
  /** A frame above the cap: that frame is refused, the connection is not at fault (reconnect). */
  PAYLOAD_TOO_LARGE: { trpc: "PAYLOAD_TOO_LARGE", http: 413, ws: 1009, retry: true },
  UNSUPPORTED_MEDIA_TYPE: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415, ws: 1003, retry: false },
  UNPROCESSABLE: { trpc: "UNPROCESSABLE_CONTENT", http: 422, ws: 4422, retry: false },
  TOO_MANY_REQUESTS: { trpc: "TOO_MANY_REQUESTS", http: 429, ws: 1013, retry: true },
  SERVICE_UNAVAILABLE: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1013, retry: true },
  INTERNAL: { trpc: "INTERNAL_SERVER_ERROR", http: 500, ws: 1011, retry: true },
  /** A normal close (the client ending its connection; one from the broker's side is dialled again). */
  CLOSED: { trpc: "CLIENT_CLOSED_REQUEST", http: 499, ws: 1000, retry: true },
  /** The broker is stopping (going away): reconnect, with backoff. */
  SHUTTING_DOWN: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1001, retry: true },
  /** No close frame came (a missed heartbeat, a cut network): ws reports 1006; never sent. */
  CONNECTION_LOST: { trpc: "TIMEOUT", http: 408, ws: 1006, retry: true },

  // Refusals of a join (Document 2's join rules, docs/protocol.md "Join"), in the order they are checked.
  // The preview names the invite's ones without `invite_` (invites/preview-invite.ts).
  invite_malformed: { trpc: "BAD_REQUEST", http: 400, ws: 4400, retry: false },
  invite_bad_signature: { trpc: "UNAUTHORIZED", http: 401, ws: 4401, retry: false },
  invite_not_found: { trpc: "NOT_FOUND", http: 404, ws: 4404, retry: false },
  // An invite that can no longer be used: 410 (tRPC has no 410: CONFLICT, 409 on the web app's routes).
  invite_expired: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
  invite_revoked: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
  invite_exhausted: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
  /** A join's refusal, and the close of every connection of an archived mesh. */
  mesh_archived: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
  peer_banned: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  /** The person (account) is banned from the mesh: their browser join, or a key joined with their token. */
  banned: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  key_proof_required: { trpc: "UNAUTHORIZED", http: 401, ws: 4401, retry: false },
  key_proof_invalid: { trpc: "UNAUTHORIZED", http: 401, ws: 4401, retry: false },
  account_token_invalid: { trpc: "UNAUTHORIZED", http: 401, ws: 4401, retry: false },

  // Refusals of a session member (docs/protocol.md, "Session members: POST /session").
  /** A session member asked for a session member of its own: only a machine's member may. */
  session_of_session: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  /** The parent holds SESSION_MEMBERS_PER_PARENT session members that are connected or new: one must end first. */
  session_cap: { trpc: "TOO_MANY_REQUESTS", http: 429, ws: 1013, retry: true },
  /** The new session's peer key is already another member's. */
  key_in_use: { trpc: "CONFLICT", http: 409, ws: 4409, retry: false },

  // Why a connection ends (docs/protocol.md, "Close codes"); the close reason is the code.
  /** The member was removed by the owner or a mesh admin. */
  removed: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  /** The member left the mesh from the web app. */
  left: { trpc: "FORBIDDEN", http: 403, ws: 4403, retry: false },
  /** The mesh was deleted with its owner's account. */
  mesh_deleted: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
  /** The mesh is at MAX_CONNECTIONS_PER_MESH. */
  capacity: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1008, retry: true },
  /** The member is at MAX_CONNECTIONS_PER_MEMBER. */
  member_capacity: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1008, retry: true },
  /** The members who joined through the same invite hold MAX_CONNECTIONS_PER_INVITE together. */
  invite_capacity: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1008, retry: true },
  /** Over its buffer budget for WS_SLOW_CONSUMER_MS; its messages stay queued. */
  slow_consumer: { trpc: "TOO_MANY_REQUESTS", http: 429, ws: 4408, retry: true },
  /** Too many frames refused by the frame limits in a minute. */
  rate_limited: { trpc: "TOO_MANY_REQUESTS", http: 429, ws: 4429, retry: true },

  /** A review bot that cannot send any more: removed, banned, or its mesh archived or deleted (docs/mesh-api.md, "Review bot"). */
  bot_gone: { trpc: "CONFLICT", http: 410, ws: 4410, retry: false },
} as const satisfies Record<string, ErrorMapping>;

/** Stable error codes of the product; every layer maps them through ERROR_MAP. */
export type AppErrorCode = keyof typeof ERROR_MAP;

/** True when a string is one of the product's error codes. */
export function isAppErrorCode(code: string): code is AppErrorCode {
  return Object.hasOwn(ERROR_MAP, code);
}

// The general class of each tRPC code: the first row that names it (the upper-case rows come first).
const BY_TRPC = new Map<string, AppErrorCode>();
for (const [code, mapping] of Object.entries(ERROR_MAP) as [AppErrorCode, ErrorMapping][])
  if (!BY_TRPC.has(mapping.trpc)) BY_TRPC.set(mapping.trpc, code);

/** The product's code of a tRPC error code (undefined for a code the table does not hold). */
export function appCodeOfTrpc(trpc: string): AppErrorCode | undefined {
  return BY_TRPC.get(trpc);
}

const ROWS: readonly ErrorMapping[] = Object.values(ERROR_MAP);
const RETRY_BY_CLOSE = new Map<number, boolean>(ROWS.map((m) => [m.ws, m.retry]));
const RETRY_BY_STATUS = new Map<number, boolean>(ROWS.map((m) => [m.http, m.retry]));

/**
 * Whether a client should try again after a refusal: by its code when the table holds it, else by the
 * WebSocket close code or HTTP status; true for what the table does not know (a proxy's 502, say).
 */
export function shouldRetry(end: { code?: string; close?: number; status?: number }): boolean {
  if (end.code !== undefined && isAppErrorCode(end.code)) return ERROR_MAP[end.code].retry;
  if (end.close !== undefined) return RETRY_BY_CLOSE.get(end.close) ?? true;
  if (end.status !== undefined) return RETRY_BY_STATUS.get(end.status) ?? true;
  return true;
}

/** An expected failure of a service: a code from ERROR_MAP, a message for people, details for clients. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? code);
    this.name = "AppError";
  }

  get httpStatus(): number {
    return ERROR_MAP[this.code].http;
  }

  get trpcCode(): TrpcCode {
    return ERROR_MAP[this.code].trpc;
  }

  get wsCloseCode(): number {
    return ERROR_MAP[this.code].ws;
  }

  /** Whether a client should try again (ERROR_MAP's retry flag). */
  get retryable(): boolean {
    return ERROR_MAP[this.code].retry;
  }

  /** The one JSON error body of REST answers. */
  toJSON(): { error: { code: AppErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** True when an error is a PostgreSQL unique violation surfaced by Prisma (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** One validation problem, the one shape of `details.issues` on every 400 of every route. */
export interface ValidationIssue {
  /** The field, dot-separated ("jobs.0.platform_id"); "" for the body itself. */
  path: string;
  message: string;
}

/** At most this many issues are listed (a huge hostile body cannot make a huge answer). */
export const MAX_VALIDATION_ISSUES = 50;

/** zod's issues (or any with a path and a message) in the product's one shape. */
export function validationIssues(
  issues: readonly { path?: readonly PropertyKey[]; message: string }[],
): ValidationIssue[] {
  return issues
    .slice(0, MAX_VALIDATION_ISSUES)
    .map((i) => ({ path: (i.path ?? []).map(String).join("."), message: i.message }));
}

/** A body that is not JSON, as a validation issue of the body itself. */
export const NOT_JSON_ISSUES: ValidationIssue[] = [{ path: "", message: "body is not JSON" }];
