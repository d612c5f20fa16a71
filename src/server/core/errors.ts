import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** tRPC's own error codes (a type only: core stays free of runtime dependencies on the API layer). */
export type TrpcCode = TRPC_ERROR_CODE_KEY;

interface ErrorMapping {
  trpc: TrpcCode;
  http: number;
  /** WebSocket close code (1008 policy violation, 1009 too big, 1011 server error, 1013 try later, 4000-4999 ours). */
  ws: number;
}

/** The one table from an application error code to tRPC, HTTP and WebSocket codes. */
export const ERROR_MAP = {
  BAD_REQUEST: { trpc: "BAD_REQUEST", http: 400, ws: 4400 },
  UNAUTHORIZED: { trpc: "UNAUTHORIZED", http: 401, ws: 4401 },
  FORBIDDEN: { trpc: "FORBIDDEN", http: 403, ws: 4403 },
  NOT_FOUND: { trpc: "NOT_FOUND", http: 404, ws: 4404 },
  CONFLICT: { trpc: "CONFLICT", http: 409, ws: 4409 },
  PAYLOAD_TOO_LARGE: { trpc: "PAYLOAD_TOO_LARGE", http: 413, ws: 1009 },
  UNSUPPORTED_MEDIA_TYPE: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415, ws: 1003 },
  UNPROCESSABLE: { trpc: "UNPROCESSABLE_CONTENT", http: 422, ws: 1008 },
  TOO_MANY_REQUESTS: { trpc: "TOO_MANY_REQUESTS", http: 429, ws: 1013 },
  SERVICE_UNAVAILABLE: { trpc: "SERVICE_UNAVAILABLE", http: 503, ws: 1013 },
  INTERNAL: { trpc: "INTERNAL_SERVER_ERROR", http: 500, ws: 1011 },
} as const satisfies Record<string, ErrorMapping>;

/** Stable error codes of the product; every layer maps them through ERROR_MAP. */
export type AppErrorCode = keyof typeof ERROR_MAP;

const BY_TRPC = new Map<string, AppErrorCode>(
  Object.entries(ERROR_MAP).map(([code, mapping]) => [mapping.trpc, code as AppErrorCode]),
);

/** The product's code of a tRPC error code (undefined for a code the table does not hold). */
export function appCodeOfTrpc(trpc: string): AppErrorCode | undefined {
  return BY_TRPC.get(trpc);
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
