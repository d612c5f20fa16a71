"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { LocalTime } from "@/components/local-time";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "../meshes/api-errors";
import { describeUserAgent } from "./user-agent";

/**
 * The user's signed-in sessions, browsers and command lines (`mesh login`, named by their machine, with
 * last use and expiry): this device marked, any other ended on its own, or all others at once after a
 * confirmation that states the consequence. Sessions are named by the last characters of their row's
 * id; no secret, token or hash of one ever reaches the browser.
 */
export function SessionsCard() {
  const t = useTranslations("account");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.my.sessions.queryOptions());
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.my.sessions.queryKey() });
  const fail = (e: unknown) => setError(firstApiErrorKey(e));
  const revokeOne = useMutation(
    trpc.my.revokeSession.mutationOptions({
      onSuccess: () => (setError(null), void refresh()),
      onError: (e) => (fail(e), void refresh()),
    }),
  );
  const revokeOthers = useMutation(
    trpc.my.revokeOtherSessions.mutationOptions({
      onSuccess: () => (setError(null), setConfirming(false), void refresh()),
      onError: fail,
    }),
  );

  const label = (ua: string | null) => {
    const d = describeUserAgent(ua);
    if (!d) return t("unknownBrowser");
    if (d.browser && d.os) return t("browserOn", { browser: d.browser, os: d.os });
    return d.browser ?? d.os ?? t("unknownBrowser");
  };
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.current).length;

  return (
    <div className="stack-sm">
      {sessions.isPending ? <p className="muted">{t("loading")}</p> : null}
      {sessions.isError ? <p className="alert">{t("loadFailed")}</p> : null}
      <ul className="session-list">
        {items.map((s) => (
          <li key={s.id} className="stack-sm">
            <div className="row-between">
              {s.kind === "command_line" ? (
                <strong>
                  {s.name} <span className="badge">{t("commandLine")}</span>
                </strong>
              ) : (
                <strong>{label(s.userAgent)}</strong>
              )}
              {s.current ? (
                <span className="badge">{t("thisDevice")}</span>
              ) : (
                <button
                  type="button"
                  className="button small secondary"
                  disabled={revokeOne.isPending}
                  onClick={() => revokeOne.mutate({ sessionId: s.id, kind: s.kind })}
                >
                  {t("endSession")}
                </button>
              )}
            </div>
            <dl className="facts">
              <div>
                <dt>{t("signedInAt")}</dt>
                <dd>
                  <LocalTime iso={s.createdAt.toISOString()} />
                </dd>
              </div>
              <div>
                <dt>{t(s.kind === "command_line" ? "lastUsed" : "lastActive")}</dt>
                <dd>
                  <LocalTime iso={s.lastSeenAt.toISOString()} />
                </dd>
              </div>
              {s.kind === "command_line" ? (
                <div>
                  <dt>{t("expiresAt")}</dt>
                  <dd>
                    <LocalTime iso={s.expires.toISOString()} />
                  </dd>
                </div>
              ) : null}
              {s.ipAddress ? (
                <div>
                  <dt>{t("address")}</dt>
                  <dd>{s.ipAddress}</dd>
                </div>
              ) : null}
              <div>
                <dt>{t("sessionId")}</dt>
                <dd>
                  <code>…{s.id.slice(-8)}</code>
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      {revokeOthers.isSuccess ? (
        <p role="status" className="notice">
          {t("signedOutOthers", { count: revokeOthers.data.signedOut })}
        </p>
      ) : null}
      {error ? (
        <p className="alert" role="alert">
          {t.has(`errors.${error}`) ? t(`errors.${error}`) : t("errors.unknown")}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmBox
          text={t("signOutOthersConfirm")}
          yes={t("signOutOthersYes")}
          cancel={t("cancel")}
          pending={revokeOthers.isPending}
          onYes={() => revokeOthers.mutate()}
          onCancel={() => setConfirming(false)}
        />
      ) : others > 0 ? (
        <button type="button" className="button danger secondary" onClick={() => setConfirming(true)}>
          {t("signOutOthers")}
        </button>
      ) : null}
    </div>
  );
}
