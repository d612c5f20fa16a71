import { AppError } from "@/server/core/errors";

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
  /** Someone not signed in: a visitor of a public page, `mesh login` before it is approved, a sign-up. */
  | { kind: "visitor" }
  /** The product itself: the worker's loops, start-up tasks, scripts. */
  | { kind: "system" };

export type UserActor = Extract<Actor, { kind: "user" }>;
export type AdministratorActor = Extract<Actor, { kind: "administrator" }>;
export type ApiKeyActor = Extract<Actor, { kind: "apiKey" }>;
export type PeerActor = Extract<Actor, { kind: "peer" }>;
export type VisitorActor = Extract<Actor, { kind: "visitor" }>;
export type SystemActor = Extract<Actor, { kind: "system" }>;

/** The visitor actor (one value: it carries nothing). */
export const VISITOR: VisitorActor = { kind: "visitor" };

/** The system actor (one value: it carries nothing). */
export const SYSTEM: SystemActor = { kind: "system" };

/** The actor as an administrator: FORBIDDEN `admin_only` for anyone else (a signed-in administrator counts). */
export function administratorOf(actor: Actor): AdministratorActor {
  if (actor.kind === "administrator") return actor;
  if (actor.kind === "user" && actor.isAdmin) return { kind: "administrator", userId: actor.userId };
  throw new AppError("FORBIDDEN", "admin_only");
}
