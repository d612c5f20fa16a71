import { isAppErrorCode, shouldRetry } from "../../src/server/core/errors";

export interface MeshClientErrorOptions {
  /** Whether trying again can help; false unless said (a local failure is not cured by repeating it). */
  retryable?: boolean;
  /** The HTTP status of the answer that refused, when one came. */
  status?: number;
  /** The answer's Retry-After, in seconds. */
  retryAfterSeconds?: number;
}

/**
 * The peer client's one error class: a failure of the client or a refusal of the broker or the web app.
 * `code` is from docs/protocol.md (ERROR_MAP's codes, a close's reason) or the client's own (`CLOSED`,
 * `UNREACHABLE`, `BAD_ANSWER`, ...); `retryable` says whether trying again can help (ERROR_MAP's retry
 * flag, or what the client knows, e.g. a send sealed under an epoch that moved on). The errors of the
 * join link, the join, the hook and the account are this class under their own names.
 */
export class MeshClientError extends Error {
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: MeshClientErrorOptions = {},
  ) {
    super(message);
    this.name = "MeshClientError";
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The options of an error for a server's answer (or its absence): `UNREACHABLE` is worth another try; a
 * refusal is retryable as ERROR_MAP says of its code, else of its status; anything else is not.
 */
export function answerOptions(code: string, status?: number, retryAfterSeconds?: number): MeshClientErrorOptions {
  const refused = isAppErrorCode(code) || (status !== undefined && status >= 400);
  const retryable = code === "UNREACHABLE" || (refused && shouldRetry({ code, status }));
  return { retryable, status, retryAfterSeconds };
}
