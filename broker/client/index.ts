// The reference client of broker protocol v1 (docs/protocol.md); the `mesh` command line uses it.
export { AccountError, loginWithDevice, logout, webBaseUrl, whoami, type LoginOptions } from "./account";
export {
  ConfigError,
  ConfigStore,
  defaultMeshHome,
  meshKeysOf,
  ZAccount,
  ZMeshConfig,
  type MeshKeys,
  type TAccount,
  type TMeshConfig,
} from "./config-store";
export { AckBatcher, backoffDelay, DEFAULT_BACKOFF, SeenIds, type BackoffOptions } from "./delivery";
export { HOOK_PATH, HookError, leaveViaBroker, setStatusViaHook, type THookAnswer, type THookInput } from "./hook";
export { defaultDisplayName, joinWithLink, JoinRefusedError, type JoinOptions, type JoinOutcome } from "./join";
export {
  brokerHttpBase,
  brokerHttpUrl,
  brokerWsUrl,
  JoinLinkError,
  readJoinLink,
  tokenFromJoinLink,
} from "./join-link";
export {
  History,
  HISTORY_DEFAULT_DAYS,
  HISTORY_DEFAULT_MAX_MESSAGES,
  retentionOf,
  type HistoryEntry,
  type HistoryQuery,
  type ReceiptState,
} from "./history";
export { MeshClient } from "./mesh-client";
export {
  endSession,
  SESSION_PATH,
  sessionConfig,
  sessionDisplayName,
  sessionEpochKeys,
  startSession,
  type SessionPlace,
} from "./session-member";
export { findSession, processAlive, readSession, sessionKeyOf, type SessionRecord } from "./session-store";
export { MeshClientError } from "./mesh-client-error";
export {
  type MeshClientEvents,
  type MeshClientOptions,
  type PresenceEvent,
  type ReadReceipt,
  type ReceivedMessage,
  type SentReceipt,
  type StatusEvent,
  type Welcome,
} from "./client-types";
export * from "./mesh-crypto";
