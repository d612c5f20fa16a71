"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import { accessLost, accessLostReason, pollUnlessAccessLost, retryUnlessAccessLost } from "@/trpc/access-lost";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useTRPC } from "@/trpc/react";
import { LiveEvents } from "./events";
import { MessagesChart } from "./messages-chart";
import { LivePeople } from "./people";
import { LIVE_POLL_MS } from "./poll";
import { useNewIds } from "./use-new-ids";

const PRIORITIES = ["low", "normal", "high", "urgent"] as const;

/**
 * The live view of a mesh: its people with presence and status, a chart and the latest envelopes
 * (metadata only), and the recent events as sentences. Polls the stream every 4000 ms; React Query
 * pauses the interval while the page is hidden (Page Visibility) and refetches at once when shown.
 * A member removed while the page is open (NOT_FOUND/FORBIDDEN, not a network blip) is told so, the
 * old figures are taken away and the polling stops.
 */
export function LiveStream({ meshId }: { meshId: string }) {
  const t = useTranslations("live");
  const tl = useTranslations("truth.accessLost");
  const trpc = useTRPC();
  const stream = useQuery({
    ...trpc.my.stream.queryOptions({ meshId }),
    refetchInterval: pollUnlessAccessLost(LIVE_POLL_MS),
    retry: retryUnlessAccessLost,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (q) => (accessLost(q.state.error) ? false : "always"),
    staleTime: 0,
  });
  const data = stream.data;
  const freshEnvelopes = useNewIds(data?.envelopes.map((e) => e.id) ?? [], !!data);
  const lost = accessLostReason(stream.error);
  if (lost) {
    return (
      <div className="alert stack-sm" role="alert">
        <h2>{tl(lost === "signedOut" ? "signedOutTitle" : "title")}</h2>
        <p>{tl(lost === "signedOut" ? "signedOutBody" : "body")}</p>
        <p>
          <Link href="/dashboard">{tl("back")}</Link>
        </p>
      </div>
    );
  }
  if (!data) {
    return (
      <p className="muted" role="status">
        {stream.isError ? t("loadFailed") : "…"}
      </p>
    );
  }
  return (
    <div className="stack">
      {stream.isError ? (
        <p className="alert" role="alert">
          {t("loadFailed")}
        </p>
      ) : null}
      <LivePeople members={data.members} total={data.membersTotal} people={data.people} />
      <div className="card stack-sm">
        <h2>{t("chart")}</h2>
        <MessagesChart times={data.envelopes.map((e) => e.createdAt.getTime())} />
      </div>
      <div className="card stack-sm">
        <h2>{t("envelopes")}</h2>
        {data.envelopes.length === 0 ? (
          <p className="muted">{t("noEnvelopes")}</p>
        ) : (
          <ScrollRegion label={t("envelopes")} cards>
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
                      <td>
                        {e.sender.displayName}{" "}
                        {freshEnvelopes.has(e.id) ? <span className="badge tone-info">{t("newRow")}</span> : null}
                      </td>
                      <td>{kind === "mesh" || kind === "peer" || kind === "peers" ? t(`targets.${kind}`) : kind}</td>
                      <td>
                        {PRIORITIES.includes(e.priority as (typeof PRIORITIES)[number])
                          ? t(`priorities.${e.priority as (typeof PRIORITIES)[number]}`)
                          : e.priority}
                      </td>
                      <td>{t("bytes", { count: e.byteSize })}</td>
                      <td>
                        <LocalTime iso={e.createdAt.toISOString()} />
                      </td>
                      <td>{e.deliveredAt ? <LocalTime iso={e.deliveredAt.toISOString()} /> : t("pending")}</td>
                      <td>
                        <code>{e.ciphertextPreview}</code>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </div>
      <LiveEvents events={data.auditEvents} />
    </div>
  );
}
