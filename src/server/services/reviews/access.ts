import type { Actor, AdministratorActor, ApiKeyActor, SystemActor } from "../actor";

/** The rows an actor may see: a key without the admin scope sees its own jobs and batches only. */
export function ownedBy(actor: Actor): { apiKeyId?: string } {
  if (actor.kind === "apiKey" && !actor.scopes.includes("admin")) return { apiKeyId: actor.apiKeyId };
  return {};
}

/** The API key a new job or batch belongs to (null for administrators working in the pages). */
export const apiKeyIdOf = (actor: Actor): string | null => (actor.kind === "apiKey" ? actor.apiKeyId : null);

/**
 * Who administers the engine (scraper registry, API keys): an administrator in the pages, a key with
 * the admin scope (its procedure checks the scope), or the system (scripts, seeds).
 */
export type EngineAdminActor = AdministratorActor | ApiKeyActor | SystemActor;
