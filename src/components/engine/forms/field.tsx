"use client";

import type { TRPCClientErrorLike } from "@trpc/client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { AppRouter } from "@/server/api/root";

/**
 * One field of a form: its label, the control (`children`, given `aria` from {@link fieldAria}), an
 * optional hint and the API's error for it, each under the ids the control's aria attributes name.
 */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <span id={`${id}-hint`} className="muted small">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A control's aria attributes for {@link Field}: described by its hint and its error, invalid with an error. */
export function fieldAria(id: string, hint: boolean, error: string | undefined) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { ...(ids ? { "aria-describedby": ids } : {}), ...(error ? { "aria-invalid": true as const } : {}) };
}

/** A field's error under it (nothing when there is none). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="field-error">
      {message}
    </span>
  );
}

/**
 * The API's own validation errors of a form's request, by field (docs/mesh-api.md, "Visibility and
 * errors"): each issue's path without the `targets.0.` of a schedule's one target, its message
 * translated where the form knows the API's text or code, else as the API wrote it. `refusal` is the
 * answer's code when it refused the request as a whole (422 target_not_allowed, 403, …).
 */
export function useApiErrors(error: TRPCClientErrorLike<AppRouter> | null) {
  const t = useTranslations("engineForms.errors");
  const data = error?.data as { details?: { issues?: { path: string; message: string }[] } | null } | undefined;
  const issues = data?.details?.issues ?? null;
  const fields = new Map<string, string>();
  for (const issue of issues ?? []) {
    const path = issue.path.replace(/^targets\.\d+\./, "");
    const key = issue.message.startsWith("not a cron expression")
      ? "cron"
      : (MESSAGE_KEYS[issue.message] ?? issue.message);
    if (!fields.has(path)) fields.set(path, t.has(key) ? t(key) : issue.message);
  }
  const code = error && !issues ? error.message : null;
  const refusal = code === null ? null : t.has(code) ? t(code) : t("failed");
  return { fields, refusal, code };
}

/** The API's messages (src/server/services/reviews/schemas.ts, schedules.schema.ts) that the form translates. */
const MESSAGE_KEYS: Record<string, string> = {
  "give exactly one of place_url and platform_id": "exactlyOnePlace",
  "must be a language code such as en or pt-BR": "languageCode",
  "give exactly one of cron and interval_seconds": "cronOrInterval",
  "Invalid URL": "invalidUrl",
  "give at least one of webhook_url, email and mesh_id": "alertChannel",
  "negative_share_rise needs a threshold of 1 to 100 points": "sharePoints",
  "must be an e-mail address": "emailAddress",
};

/**
 * The end of an engine form: the API's refusal of the whole request (if any) as an alert, then the
 * submit button, which says `busyLabel` while the request runs and stays disabled once it succeeded
 * (the page is about to move to the new object).
 */
export function FormFooter({
  refusal,
  code,
  pending,
  done,
  label,
  busyLabel,
}: {
  refusal: string | null;
  code: string | null;
  pending: boolean;
  done: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      {refusal ? (
        <p className="alert" role="alert" data-error={code ?? undefined}>
          {refusal}
        </p>
      ) : null}
      <button className="button" type="submit" disabled={pending || done}>
        {pending ? busyLabel : label}
      </button>
    </>
  );
}

/** "Requested for" (`requester_client_id`) of the job and schedule forms, with its hint and the API's error. */
export function RequesterField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const t = useTranslations("engineForms");
  const id = "f-requester_client_id";
  return (
    <Field id={id} label={t("clientId")} hint={t("clientIdHint")} error={error}>
      <input
        id={id}
        value={value}
        maxLength={200}
        {...fieldAria(id, true, error)}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
