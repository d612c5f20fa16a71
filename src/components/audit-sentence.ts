/**
 * An audit event as one sentence naming who did what to whom ("Ana changed the role of Bo from member to
 * admin"), in the reader's language. Pure: the live page (client) and the admin pages (server) pass
 * their translators for the `live` and `meshes` namespaces.
 */
import { AUDIT_TYPES } from "@/server/services/audit/audit-types";
import { MEMBER_ROLES } from "@/server/services/meshes/schemas";

export interface AuditLike {
  eventType: string;
  actorName: string | null;
  targetName: string | null;
  metadata: unknown;
}

/** A translator narrowed to what this module needs (next-intl's are typed by their keys). */
export type Tr = (key: string, values?: Record<string, string | number>) => string;

const TARGET_KINDS = ["mesh", "peer", "peers"] as const;
/** The statuses our own hooks set (`mesh install claude-code`); others are people's own words. */
export const KNOWN_STATUSES = ["working", "idle", "offline", "away", "busy", "waiting", "done"] as const;

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | null =>
  typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : null;

/** A member's status for people: ours translated, anyone else's word with `_` and `-` as spaces. */
export function statusLabel(live: Tr, status: string): string {
  const known = oneOf(KNOWN_STATUSES, status);
  return known ? live(`statusValues.${known}`) : status.replace(/[_-]+/g, " ");
}

export function auditSentence(live: Tr, meshes: Tr, a: AuditLike): string {
  const meta = a.metadata !== null && typeof a.metadata === "object" ? (a.metadata as Record<string, unknown>) : {};
  const role = (v: unknown) => {
    const r = oneOf(MEMBER_ROLES, v);
    return r ? meshes(`roles.${r}`) : "?";
  };
  const kind = oneOf(TARGET_KINDS, meta.targetKind);
  const type = oneOf(AUDIT_TYPES, a.eventType);
  if (!type) return live("unknownEvent");
  return live(`events.${type}`, {
    actor: a.actorName ?? live("someone"),
    target: a.targetName ?? live("aMember"),
    role: role(meta.role),
    from: role(meta.from),
    to: role(meta.to),
    status: typeof meta.status === "string" ? statusLabel(live, meta.status) : "?",
    via: typeof meta.via === "string" ? meta.via : "",
    targetKind: kind ? live(`targets.${kind}`) : "?",
  });
}
