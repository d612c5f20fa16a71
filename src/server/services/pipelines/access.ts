import { AppError } from "@/server/core/errors";
import type { Actor } from "@/server/services/actor";

/** Scopes an API key needs (Document 1 scopes, as for jobs): reads need jobs:read, runs need jobs:write. */
const NEEDED = { read: "jobs:read", execute: "jobs:write" } as const;

/**
 * Who may use pipelines: any signed-in user and the system; an API key with the scope of the
 * operation (admin keys may do everything).
 */
export function assertPipelineAccess(actor: Actor, operation: keyof typeof NEEDED): void {
  if (actor.kind !== "apiKey") return;
  if (actor.scopes.includes("admin") || actor.scopes.includes(NEEDED[operation])) return;
  throw new AppError("FORBIDDEN", "missing_scope", { required: NEEDED[operation] });
}
