"use client";

import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { MEMBER_ROLES } from "@/server/services/meshes/schemas";
import { useNewIds } from "./use-new-ids";

export interface LiveEvent {
  id: string;
  eventType: string;
  createdAt: Date;
  actorName: string | null;
  targetName: string | null;
  metadata: unknown;
}

const TARGET_KINDS = ["mesh", "peer", "peers"] as const;
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | null => (typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : null);
const textOf = (v: unknown): string => (typeof v === "string" ? v : "");

/** One audit event as a sentence: who did what to whom, in the viewer's language. */
function useEventText() {
  const t = useTranslations("live");
  const tm = useTranslations("meshes");
  return (a: LiveEvent): string => {
    const meta = a.metadata !== null && typeof a.metadata === "object" ? (a.metadata as Record<string, unknown>) : {};
    const role = (v: unknown) => {
      const r = oneOf(MEMBER_ROLES, v);
      return r ? tm(`roles.${r}`) : "?";
    };
    const kind = oneOf(TARGET_KINDS, meta.targetKind);
    const values = {
      actor: a.actorName ?? t("someone"),
      target: a.targetName ?? t("aMember"),
      role: role(meta.role),
      from: role(meta.from),
      to: role(meta.to),
      status: textOf(meta.status),
      via: textOf(meta.via),
      targetKind: kind ? t(`targets.${kind}`) : "?",
    };
    switch (a.eventType) {
      case "mesh_created":
      case "mesh_archived":
      case "invite_created":
      case "invite_revoked":
      case "member_joined":
      case "member_left":
      case "message_sent":
      case "status_changed":
      case "member_removed":
      case "member_banned":
      case "member_unbanned":
      case "role_changed":
        return t(`events.${a.eventType}`, values);
      default:
        return a.eventType;
    }
  };
}

/** The newest audit events, each as a sentence with its time; new ones marked. */
export function LiveEvents({ events }: { events: readonly LiveEvent[] }) {
  const t = useTranslations("live");
  const text = useEventText();
  const fresh = useNewIds(events.map((e) => e.id), true);
  return (
    <div className="card stack-sm">
      <h2>{t("audit")}</h2>
      {events.length === 0 ? (
        <p className="muted">{t("noAudit")}</p>
      ) : (
        <ul className="list">
          {events.map((a) => (
            <li key={a.id} className={fresh.has(a.id) ? "fresh" : undefined} data-testid="live-event" data-event={a.eventType}>
              {text(a)} · <LocalTime iso={a.createdAt.toISOString()} /> {fresh.has(a.id) ? <span className="badge">{t("newRow")}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
