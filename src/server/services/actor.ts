/** Who performs a use case: services take it in their context and never read the request or session. */
export type Actor =
  /** A signed-in person acting on their own data (an administrator too, on the `my` routes). */
  | { kind: "user"; userId: string; isAdmin: boolean }
  /** A signed-in administrator acting on everyone's data (the `admin` routes and admin pages). */
  | { kind: "administrator"; userId: string }
  /** An API client (Document 1), with the scopes of its key. */
  | { kind: "apiKey"; apiKeyId: string; scopes: readonly string[] }
  /** A mesh member connected to the broker (Document 2). */
  | { kind: "peer"; meshId: string; memberId: string }
  /** The product itself: the worker's loops, start-up tasks, scripts. */
  | { kind: "system" };

export type UserActor = Extract<Actor, { kind: "user" }>;
export type AdministratorActor = Extract<Actor, { kind: "administrator" }>;
export type ApiKeyActor = Extract<Actor, { kind: "apiKey" }>;
export type PeerActor = Extract<Actor, { kind: "peer" }>;
export type SystemActor = Extract<Actor, { kind: "system" }>;

/** The system actor (one value: it carries nothing). */
export const SYSTEM: SystemActor = { kind: "system" };
