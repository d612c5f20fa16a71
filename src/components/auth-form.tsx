"use client";

import { useLocale, useTranslations } from "next-intl";
import { useActionState } from "react";
import type { AuthFormState } from "@/server/auth/actions";

type Field = "name" | "email" | "password";

interface Props {
  mode: "signIn" | "signUp";
  action: (prev: AuthFormState, formData: FormData) => Promise<AuthFormState>;
  callbackUrl?: string;
  /** The e-mail address to fill in (the sign-in page after a sign-up). */
  initialEmail?: string;
}

/** The e-mail and password form of the sign-in and sign-up pages, with inline errors. */
export function AuthForm({ mode, action, callbackUrl, initialEmail }: Props) {
  const t = useTranslations("auth");
  const locale = useLocale();
  const [state, formAction, pending] = useActionState(action, {});
  const fields: Field[] = mode === "signUp" ? ["name", "email", "password"] : ["email", "password"];
  const message = (key: string) => (t.has(`errors.${key}`) ? t(`errors.${key}`) : t("errors.unknown"));

  return (
    <form action={formAction} className="form" noValidate>
      <input type="hidden" name="locale" value={locale} />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      {state.error ? (
        <p className="alert" role="alert">
          {message(state.error)}
        </p>
      ) : null}
      {fields.map((field) => {
        const errors = state.fieldErrors?.[field] ?? [];
        const id = `${mode}-${field}`;
        const describedBy = [
          errors.length ? `${id}-error` : "",
          field === "password" && mode === "signUp" ? `${id}-hint` : "",
        ]
          .filter(Boolean)
          .join(" ");
        return (
          <div key={field} className="field">
            <label htmlFor={id}>{t(field)}</label>
            <input
              id={id}
              name={field}
              type={field === "password" ? "password" : field === "email" ? "email" : "text"}
              autoComplete={field === "password" ? (mode === "signUp" ? "new-password" : "current-password") : field}
              defaultValue={
                field === "password"
                  ? undefined
                  : (state.values?.[field] ?? (field === "email" ? initialEmail : undefined))
              }
              required
              aria-invalid={errors.length > 0}
              aria-describedby={describedBy || undefined}
            />
            {field === "password" && mode === "signUp" ? (
              <small id={`${id}-hint`} className="muted">
                {t("passwordHint")}
              </small>
            ) : null}
            {errors.length ? (
              <small id={`${id}-error`} className="field-error">
                {errors.map(message).join(" ")}
              </small>
            ) : null}
          </div>
        );
      })}
      <button type="submit" className="button" disabled={pending}>
        {pending ? t("pending") : t(mode === "signUp" ? "submitSignUp" : "submitSignIn")}
      </button>
    </form>
  );
}
