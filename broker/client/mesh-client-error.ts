/**
 * The peer client's error: a failure of the client or a refusal of the broker. `code` is from
 * docs/protocol.md (ERROR_MAP's codes, a close's reason), `retryable` whether trying again can help
 * (ERROR_MAP's retry flag, or what the client knows, e.g. a send sealed under an epoch that moved on).
 */
export class MeshClientError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = "MeshClientError";
  }
}
