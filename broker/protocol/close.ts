import type WebSocket from "ws";
import { ERROR_MAP, type AppErrorCode } from "../../src/server/core/errors";

/**
 * Closes a WebSocket with the close code ERROR_MAP gives `code` (docs/protocol.md, "Close codes"); the
 * reason is the code itself unless one is given. Every close of the broker and of the client is made here.
 */
export function closeWith(ws: Pick<WebSocket, "close">, code: AppErrorCode, reason: string = code): void {
  ws.close(ERROR_MAP[code].ws, reason);
}
