import type { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { Actor } from "@/server/services/actor";
import { ownedBy } from "@/server/services/reviews/access";

/** Scopes an API key needs (Document 1 scopes, as for jobs): reads need jobs:read, runs need jobs:write. */
const NEEDED = { read: "jobs:read", execute: "jobs:write" } as const;

/**
 * Who may use pipelines (docs/pipelines.md, "Authentication"): signed-in administrators and the
 * system; an API key with the scope of the operation (admin keys may do everything). Other signed-in
 * users are refused here too, not only by the procedure, so no other caller of the services can skip it.
 */
export function assertPipelineAccess(actor: Actor, operation: keyof typeof NEEDED): void {
  if (actor.kind === "system" || actor.kind === "administrator") return;
  if (actor.kind === "peer" || actor.kind === "visitor") throw new AppError("FORBIDDEN", "admin_only");
  if (actor.kind === "user") {
    if (actor.isAdmin) return;
    throw new AppError("FORBIDDEN", "admin_only");
  }
  if (actor.scopes.includes("admin") || actor.scopes.includes(NEEDED[operation])) return;
  throw new AppError("FORBIDDEN", "missing_scope", { required: NEEDED[operation] });
}

/**
 * The executions an actor may see, as a where clause (every query of executions includes it): a key
 * without the admin scope sees the runs it triggered; administrators and the system see every run.
 * A non-administrator user never gets this far, but would see only their own runs.
 */
export function visibleExecutions(actor: Actor): Prisma.PipelineExecutionWhereInput {
  if (actor.kind === "apiKey" && !actor.scopes.includes("admin")) return { triggeredByApiKeyId: actor.apiKeyId };
  if (actor.kind === "user" && !actor.isAdmin) return { triggeredByUserId: actor.userId };
  return {};
}

/** The executions the actor triggered itself (null for the system, which triggers none). */
export function ownExecutions(actor: Actor): Prisma.PipelineExecutionWhereInput | null {
  if (actor.kind === "apiKey") return { triggeredByApiKeyId: actor.apiKeyId };
  if (actor.kind === "user" || actor.kind === "administrator") return { triggeredByUserId: actor.userId };
  return null;
}

/**
 * The API key whose jobs a run of this actor may read (stored as read_scope_api_key_id): the key
 * itself when it lacks the admin scope; null (every job) for administrators, as the engine's rule.
 */
export const readScopeOf = (actor: Actor): string | null => ownedBy(actor).apiKeyId ?? null;

/** Who counts toward the limit of active executions: the API key or the user (none for the system). */
export function principalOf(actor: Actor): { key: string; where: Prisma.PipelineExecutionWhereInput } | null {
  const where = ownExecutions(actor);
  if (!where) return null;
  if (actor.kind === "apiKey") return { key: `key:${actor.apiKeyId}`, where };
  if (actor.kind === "user" || actor.kind === "administrator") return { key: `user:${actor.userId}`, where };
  return null;
}
