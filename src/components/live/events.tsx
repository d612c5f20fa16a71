"use client";

import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { auditSentence, type Tr } from "@/components/audit-sentence";
import { useNewIds } from "./use-new-ids";

export interface LiveEvent {
  id: string;
  eventType: string;
  createdAt: Date;
  actorName: string | null;
  targetName: string | null;
  metadata: unknown;
}

/** One audit event as a sentence: who did what to whom, in the viewer's language. */
function useEventText() {
  const live = useTranslations("live") as unknown as Tr;
  const meshes = useTranslations("meshes") as unknown as Tr;
  return (a: LiveEvent): string => auditSentence(live, meshes, a);
}

/** The newest audit events, each as a sentence with its time; new ones marked. */
export function LiveEvents({ events }: { events: readonly LiveEvent[] }) {
  const t = useTranslations("live");
  const text = useEventText();
  const fresh = useNewIds(
    events.map((e) => e.id),
    true,
  );
  return (
    <div className="card stack-sm">
      <h2>{t("audit")}</h2>
      {events.length === 0 ? (
        <p className="muted">{t("noAudit")}</p>
      ) : (
        <ul className="list">
          {events.map((a) => (
            <li
              key={a.id}
              className={fresh.has(a.id) ? "fresh" : undefined}
              data-testid="live-event"
              data-event={a.eventType}
            >
              {text(a)} · <LocalTime iso={a.createdAt.toISOString()} />{" "}
              {fresh.has(a.id) ? <span className="badge tone-info">{t("newRow")}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
