import type { Actor, AdministratorActor, ApiKeyActor, SystemActor } from "../actor";

/** The rows an actor may see: a key without the admin scope sees its own jobs and batches only. */
export function ownedBy(actor: Actor): { apiKeyId?: string } {
  if (actor.kind === "apiKey" && !actor.scopes.includes("admin")) return { apiKeyId: actor.apiKeyId };
  return {};
}

/** The API key a new job or batch belongs to (null for administrators working in the pages). */
export const apiKeyIdOf = (actor: Actor): string | null => (actor.kind === "apiKey" ? actor.apiKeyId : null);

/**
 * Who acts on the review engine: an API key (its scopes checked by the procedure; the admin scope
 * administers the registry and the keys), an administrator in the pages, or the system (the worker's
 * schedule runs, scripts, benches). A signed-in user who is not an administrator, or a mesh peer, never
 * reaches a review service: `ownedBy` would let them see every row.
 */
export type ReviewActor = AdministratorActor | ApiKeyActor | SystemActor;
