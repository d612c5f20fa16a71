"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { LocalTime } from "@/components/local-time";
import { firstApiErrorKey } from "@/components/meshes/api-errors";
import { useTRPC } from "@/trpc/react";

/**
 * The person's side of `mesh login`: enter (or check) the code, see which machine asks, approve or deny.
 * Approving wants the password again unless this browser signed in within the last minutes; an account
 * without a password signs in again instead (`signInAgain`: the provider buttons, coming back here).
 */
export function DeviceApproval({
  initialCode,
  recentMinutes,
  signInAgain,
}: {
  initialCode: string;
  /** How recent a sign-in approves without the password (DEVICE_APPROVAL_RECENT_SIGN_IN_MS). */
  recentMinutes: number;
  signInAgain?: ReactNode;
}) {
  const t = useTranslations("device");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const [typed, setTyped] = useState(initialCode);
  const [code, setCode] = useState(initialCode);
  const login = useQuery({
    ...trpc.my.deviceLogin.queryOptions({ userCode: code }),
    enabled: code.length > 0,
    retry: false,
  });
  const decide = useMutation(trpc.my.decideDeviceLogin.mutationOptions());
  const [password, setPassword] = useState("");
  const message = (key: string) => (te.has(key) ? te(key as "generic") : te("generic"));
  const decideError = decide.isError ? firstApiErrorKey(decide.error) : null;
  // What approving needs: as the code's check said, or as a refusal since (the minutes may have passed).
  const reauth =
    decideError === "reauth_required" && login.data?.reauth === "none" ? "password" : (login.data?.reauth ?? "none");

  if (decide.data) {
    return (
      <p className="notice" role="status" data-testid="device-result">
        {decide.data.approved
          ? t("approved", { name: decide.data.clientName })
          : t("denied", { name: decide.data.clientName })}
      </p>
    );
  }
  return (
    <div className="stack">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          setCode(typed.trim());
        }}
      >
        <div className="field">
          <label htmlFor="device-code">{t("codeLabel")}</label>
          <input
            id="device-code"
            value={typed}
            maxLength={40}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="BCDF-GHJK"
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <button type="submit" className="button secondary" disabled={typed.trim().length === 0}>
          {t("check")}
        </button>
      </form>
      {login.isError ? (
        <p className="alert" role="alert" data-testid="device-error">
          {message(firstApiErrorKey(login.error))}
        </p>
      ) : null}
      {login.data ? (
        <div className="card stack-sm" data-testid="device-request">
          <p>{t("asks", { name: login.data.clientName, code: login.data.userCode })}</p>
          <p className="muted">
            {t("expires")} <LocalTime iso={new Date(login.data.expiresAt).toISOString()} />
          </p>
          <p className="muted">{t("warning")}</p>
          {reauth === "password" ? (
            <div className="field">
              <label htmlFor="device-password">{t("passwordLabel")}</label>
              <input
                id="device-password"
                type="password"
                autoComplete="current-password"
                maxLength={200}
                value={password}
                aria-describedby="device-password-hint"
                onChange={(e) => setPassword(e.target.value)}
              />
              <small id="device-password-hint" className="muted">
                {t("passwordHint", { minutes: recentMinutes })}
              </small>
            </div>
          ) : null}
          {reauth === "sign_in" ? (
            <div className="stack-sm" data-testid="device-sign-in-again">
              <p>{t("signInAgain", { minutes: recentMinutes })}</p>
              {signInAgain}
            </div>
          ) : null}
          {decideError ? (
            <p className="alert" role="alert">
              {message(decideError)}
            </p>
          ) : null}
          <div className="row">
            <button
              type="button"
              className="button"
              disabled={decide.isPending || reauth === "sign_in" || (reauth === "password" && password.length === 0)}
              onClick={() =>
                decide.mutate({
                  userCode: login.data.userCode,
                  approve: true,
                  ...(reauth === "password" ? { password } : {}),
                })
              }
            >
              {t("approve")}
            </button>
            <button
              type="button"
              className="button secondary"
              disabled={decide.isPending}
              onClick={() => decide.mutate({ userCode: login.data.userCode, approve: false })}
            >
              {t("deny")}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
