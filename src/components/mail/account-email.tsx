"use client";

import { useMutation } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "../meshes/api-errors";

function useMessage() {
  const t = useTranslations("email");
  return (key: string | null) => (key && t.has(`errors.${key}`) ? t(`errors.${key}`) : t("errors.unknown"));
}

/** The dashboard's banner while the account's address is not confirmed, with "send the link again". */
export function VerifyBanner({ email }: { email: string }) {
  const t = useTranslations("email");
  const locale = useLocale() as "en" | "es" | "de";
  const message = useMessage();
  const trpc = useTRPC();
  const [error, setError] = useState<string | null>(null);
  const resend = useMutation(
    trpc.my.resendVerification.mutationOptions({
      onSuccess: () => setError(null),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  return (
    <div className="notice row" role="status" data-testid="verify-banner" style={{ marginBottom: "1rem" }}>
      <span>{t("bannerUnverified", { email })}</span>
      {resend.isSuccess ? (
        <span>{t("resent")}</span>
      ) : (
        <button
          type="button"
          className="button small"
          disabled={resend.isPending}
          onClick={() => resend.mutate({ locale })}
        >
          {resend.isPending ? t("pending") : t("resend")}
        </button>
      )}
      {error ? (
        <span className="field-error" role="alert">
          {message(error)}
        </span>
      ) : null}
    </div>
  );
}

/** Settings, "E-mail address": the new address gets a confirmation link; nothing changes before. */
export function ChangeEmailForm() {
  const t = useTranslations("email");
  const locale = useLocale() as "en" | "es" | "de";
  const trpc = useTRPC();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const change = useMutation(
    trpc.my.requestEmailChange.mutationOptions({
      onSuccess: (_data, input) => (setError(null), setSentTo(input.newEmail)),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    change.mutate({ newEmail: String(new FormData(event.currentTarget).get("newEmail") ?? ""), locale });
  }
  return (
    <form onSubmit={submit} className="form" noValidate>
      {sentTo ? (
        <p className="notice" role="status">
          {t("changeSent", { email: sentTo })}
        </p>
      ) : null}
      <EmailField id="change-email" name="newEmail" label={t("newEmail")} autoComplete="email" error={error} />
      <button type="submit" className="button" disabled={change.isPending}>
        {change.isPending ? t("pending") : t("changeSubmit")}
      </button>
    </form>
  );
}

/** The invite page, once an invite exists: mail its short link to an address, in the sender's language. */
export function InviteEmailForm({ inviteId }: { inviteId: string }) {
  const t = useTranslations("email");
  const locale = useLocale() as "en" | "es" | "de";
  const trpc = useTRPC();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useMutation(
    trpc.my.sendInviteByEmail.mutationOptions({
      onSuccess: (_data, input) => (setError(null), setSentTo(input.email)),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    send.mutate({ inviteId, email: String(new FormData(form).get("email") ?? ""), locale });
    form.reset();
  }
  return (
    <form onSubmit={submit} className="form" noValidate aria-labelledby="invite-email-title">
      <h3 id="invite-email-title">{t("inviteTitle")}</h3>
      <p className="muted small">{t("inviteLead")}</p>
      {sentTo ? (
        <p className="notice" role="status">
          {t("inviteSent", { email: sentTo })}
        </p>
      ) : null}
      <EmailField id="invite-email" name="email" label={t("email")} autoComplete="off" error={error} />
      <button type="submit" className="button" disabled={send.isPending}>
        {send.isPending ? t("pending") : t("inviteSubmit")}
      </button>
    </form>
  );
}

/** One e-mail address field with its label and the API's error under it. */
function EmailField(props: { id: string; name: string; label: string; autoComplete: string; error: string | null }) {
  const message = useMessage();
  const { id, error } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type="email"
        autoComplete={props.autoComplete}
        required
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {message(error)}
        </small>
      ) : null}
    </div>
  );
}
