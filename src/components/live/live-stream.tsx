"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { useTRPC } from "@/trpc/react";
import { MessagesChart } from "./messages-chart";

export const LIVE_POLL_MS = 4000;

interface Seen {
  key: string;
  loaded: boolean;
  seen: Set<string>;
  fresh: Set<string>;
}

/** Remembers the ids seen so far; returns the ones that arrived with the latest data (none at first load). */
function useNewIds(ids: string[], loaded: boolean): Set<string> {
  const key = ids.join(",");
  const [state, setState] = useState<Seen>({ key: "", loaded: false, seen: new Set(), fresh: new Set() });
  // Adjusting state while rendering when the input changed: React re-renders at once, no effect needed.
  if (loaded && state.key !== key) {
    const fresh = state.loaded ? new Set(ids.filter((id) => !state.seen.has(id))) : new Set<string>();
    setState({ key, loaded: true, seen: new Set([...state.seen, ...ids]), fresh });
  }
  return state.fresh;
}

/**
 * The live view of a mesh: polls the stream every 4000 ms. React Query pauses the interval while the
 * page is hidden (Page Visibility) and refetches at once when it is shown again.
 */
export function LiveStream({ meshId }: { meshId: string }) {
  const t = useTranslations("live");
  const trpc = useTRPC();
  const stream = useQuery({
    ...trpc.my.stream.queryOptions({ meshId }),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: "always",
    staleTime: 0,
  });
  const data = stream.data;
  const freshEnvelopes = useNewIds(data?.envelopes.map((e) => e.id) ?? [], !!data);
  const freshEvents = useNewIds(data?.auditEvents.map((e) => e.id) ?? [], !!data);
  if (!data) {
    return <p className="muted" role="status">{stream.isError ? t("loadFailed") : "…"}</p>;
  }
  return (
    <div className="stack">
      {stream.isError ? <p className="alert" role="alert">{t("loadFailed")}</p> : null}
      <div className="card stack-sm">
        <h2>{t("presences")}</h2>
        {data.presences.length === 0 ? (
          <p className="muted">{t("noPresences")}</p>
        ) : (
          <ul className="list">
            {data.presences.map((p) => (
              <li key={p.id}>
                <strong>{p.displayName}</strong> · {p.status} · {t("since")} <LocalTime iso={p.connectedAt.toISOString()} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="card stack-sm">
        <h2>{t("chart")}</h2>
        <MessagesChart times={data.envelopes.map((e) => e.createdAt.getTime())} />
      </div>
      <div className="card stack-sm table-wrap">
        <h2>{t("envelopes")}</h2>
        {data.envelopes.length === 0 ? (
          <p className="muted">{t("noEnvelopes")}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t("sender")}</th>
                <th scope="col">{t("target")}</th>
                <th scope="col">{t("priority")}</th>
                <th scope="col">{t("size")}</th>
                <th scope="col">{t("created")}</th>
                <th scope="col">{t("delivered")}</th>
                <th scope="col">{t("preview")}</th>
              </tr>
            </thead>
            <tbody>
              {data.envelopes.map((e) => {
                const kind = (e.targetSpec as { kind?: string } | null)?.kind;
                return (
                  <tr key={e.id} className={freshEnvelopes.has(e.id) ? "fresh" : undefined}>
                    <td>{e.sender.displayName}</td>
                    <td>{kind === "mesh" || kind === "peer" || kind === "peers" ? t(`targets.${kind}`) : kind}</td>
                    <td>{e.priority}</td>
                    <td>{t("bytes", { count: e.byteSize })}</td>
                    <td><LocalTime iso={e.createdAt.toISOString()} /></td>
                    <td>{e.deliveredAt ? <LocalTime iso={e.deliveredAt.toISOString()} /> : t("pending")}</td>
                    <td><code>{e.ciphertextPreview}</code></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <div className="card stack-sm">
        <h2>{t("audit")}</h2>
        {data.auditEvents.length === 0 ? (
          <p className="muted">{t("noAudit")}</p>
        ) : (
          <ul className="list">
            {data.auditEvents.map((a) => (
              <li key={a.id} className={freshEvents.has(a.id) ? "fresh" : undefined}>
                <code>{a.eventType}</code> · <LocalTime iso={a.createdAt.toISOString()} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
