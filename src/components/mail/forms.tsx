"use client";

import { useLocale, useTranslations } from "next-intl";
import { useActionState } from "react";
import { Link } from "@/i18n/navigation";
import type { MailFormState } from "@/server/auth/mail-actions";

type Action = (prev: MailFormState, formData: FormData) => Promise<MailFormState>;

function useMessage() {
  const t = useTranslations("email");
  return (key: string | undefined) => (key && t.has(`errors.${key}`) ? t(`errors.${key}`) : t("errors.unknown"));
}

function Alert({ error }: { error?: string }) {
  const message = useMessage();
  return error ? (
    <p className="alert" role="alert">
      {message(error)}
    </p>
  ) : null;
}

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  const message = useMessage();
  return errors?.length ? (
    <small id={`${id}-error`} className="field-error">
      {errors.map(message).join(" ")}
    </small>
  ) : null;
}

/** "Forgot password?": one address; the same answer whether or not it has an account. */
export function ForgotPasswordForm({ action, initialEmail }: { action: Action; initialEmail?: string }) {
  const t = useTranslations("email");
  const locale = useLocale();
  const [state, formAction, pending] = useActionState(action, {});
  if (state.done) {
    return (
      <p className="notice" role="status">
        {t("forgotSent")}
      </p>
    );
  }
  const errors = state.fieldErrors?.email;
  return (
    <form action={formAction} className="form" noValidate>
      <input type="hidden" name="locale" value={locale} />
      <Alert error={state.error} />
      <div className="field">
        <label htmlFor="forgot-email">{t("email")}</label>
        <input
          id="forgot-email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={initialEmail}
          required
          aria-invalid={Boolean(errors?.length)}
          aria-describedby={errors?.length ? "forgot-email-error" : undefined}
        />
        <FieldErrors id="forgot-email" errors={errors} />
      </div>
      <button type="submit" className="button" disabled={pending}>
        {pending ? t("pending") : t("forgotSubmit")}
      </button>
    </form>
  );
}

/** The reset page's form: the new password twice (sign-up's rules); success goes on to sign-in. */
export function ResetPasswordForm({ action, token }: { action: Action; token: string }) {
  const t = useTranslations("email");
  const locale = useLocale();
  const [state, formAction, pending] = useActionState(action, {});
  const fields = [
    { name: "newPassword", hint: true },
    { name: "confirmPassword", hint: false },
  ] as const;
  return (
    <form action={formAction} className="form" noValidate>
      <input type="hidden" name="locale" value={locale} />
      <input type="hidden" name="token" value={token} />
      <Alert error={state.error} />
      {state.error === "link_invalid" ? (
        <p>
          <Link href="/forgot-password">{t("requestNewLink")}</Link>
        </p>
      ) : null}
      {fields.map(({ name, hint }) => {
        const id = `reset-${name}`;
        const errors = state.fieldErrors?.[name];
        const describedBy = [errors?.length ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
        return (
          <div key={name} className="field">
            <label htmlFor={id}>{t(name)}</label>
            <input
              id={id}
              name={name}
              type="password"
              autoComplete="new-password"
              required
              aria-invalid={Boolean(errors?.length)}
              aria-describedby={describedBy || undefined}
            />
            {hint ? (
              <small id={`${id}-hint`} className="muted">
                {t("passwordHint")}
              </small>
            ) : null}
            <FieldErrors id={id} errors={errors} />
          </div>
        );
      })}
      <button type="submit" className="button" disabled={pending}>
        {pending ? t("pending") : t("resetSubmit")}
      </button>
    </form>
  );
}

/**
 * The verification and address-change pages: one button that uses the link's token (a button, not the
 * page load, so a mail scanner opening the link uses nothing up).
 */
export function TokenConfirmForm({
  action,
  token,
  submit,
  done,
}: {
  action: Action;
  token: string;
  submit: "verifySubmit" | "confirmSubmit";
  done: "verifyDone" | "confirmDone";
}) {
  const t = useTranslations("email");
  const locale = useLocale();
  const [state, formAction, pending] = useActionState(action, {});
  if (state.done) {
    return (
      <div className="stack-sm">
        <p className="notice" role="status">
          {t(done, { email: state.email ?? "" })}
        </p>
        <p>
          <Link href="/dashboard">{t("toDashboard")}</Link>
        </p>
      </div>
    );
  }
  return (
    <form action={formAction} className="form">
      <input type="hidden" name="locale" value={locale} />
      <input type="hidden" name="token" value={token} />
      <Alert error={state.error} />
      <button type="submit" className="button" disabled={pending}>
        {pending ? t("pending") : t(submit)}
      </button>
    </form>
  );
}
