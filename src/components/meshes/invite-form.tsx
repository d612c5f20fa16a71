"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { CopyField } from "@/components/copy-field";
import { QrCode } from "@/components/qr-code";
import { InviteEmailForm } from "@/components/mail/account-email";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { INVITE_DEFAULT_MAX_USES } from "@/server/services/invites/invite-state";
import { firstApiErrorKey } from "./api-errors";
import { CliJoin, FullLinks } from "./cli-join";

const EXPIRY_HOURS = [1, 24, 24 * 7, 24 * 30];

/**
 * Role, expiry and use cap; once the invite exists, its QR code and short link, the full link and the
 * command-line link behind "show the full links", and the `mesh join` command with how to install `mesh`.
 */
export function InviteForm({ meshId, canGrantAdmin }: { meshId: string; canGrantAdmin: boolean }) {
  const t = useTranslations("invite");
  const tm = useTranslations("meshes");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.my.createInvite.mutationOptions({
      onSuccess: () => (setError(null), router.refresh()),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  const roles = canGrantAdmin ? (["member", "observer", "admin"] as const) : (["member", "observer"] as const);

  function submit(form: FormData) {
    const cap = String(form.get("maxUses") ?? "").trim();
    create.mutate({
      meshId,
      role: String(form.get("role")) as (typeof roles)[number],
      expiresInHours: Number(form.get("expiresInHours")),
      maxUses: cap === "" ? null : Number(cap),
    });
  }

  return (
    <div className="stack">
      <form action={submit} className="form">
        {error ? (
          <p className="alert" role="alert">
            {te.has(error) ? te(error) : te("generic")}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="invite-role">{t("role")}</label>
          <select id="invite-role" name="role" defaultValue="member">
            {roles.map((r) => (
              <option key={r} value={r}>
                {tm(`roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="invite-expiry">{t("expiresIn")}</label>
          <select id="invite-expiry" name="expiresInHours" defaultValue={String(24 * 7)}>
            {EXPIRY_HOURS.map((h) => (
              <option key={h} value={h}>
                {h < 24 ? t("hours", { count: h }) : t("days", { count: h / 24 })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="invite-cap">{t("maxUses")}</label>
          <input
            id="invite-cap"
            name="maxUses"
            type="number"
            min={1}
            max={10000}
            inputMode="numeric"
            aria-describedby="invite-cap-hint"
          />
          <small id="invite-cap-hint" className="muted">
            {t("maxUsesHint", { max: INVITE_DEFAULT_MAX_USES })}
          </small>
        </div>
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? t("pending") : t("submit")}
        </button>
      </form>
      {create.data ? (
        <div className="card stack-sm" aria-live="polite">
          <h2>{t("resultTitle")}</h2>
          <QrCode value={create.data.shortUrl} label={t("qrLabel")} />
          <CopyField label={t("shortUrl")} value={create.data.shortUrl} testId="short-url" />
          <FullLinks summary={t("showFullLink")}>
            <CopyField label={t("joinUrl")} value={create.data.joinUrl} testId="join-url" />
            <CopyField label={t("inviteLink")} value={create.data.inviteLink} testId="invite-link" />
          </FullLinks>
          <h3>{t("cliTitle")}</h3>
          <CliJoin link={create.data.shortUrl} />
          <p className="muted small">{t("linksHint")}</p>
          <InviteEmailForm key={create.data.inviteId} inviteId={create.data.inviteId} />
        </div>
      ) : null}
    </div>
  );
}
