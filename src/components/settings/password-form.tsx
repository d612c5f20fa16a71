"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/trpc/react";
import { apiErrorKeys } from "../meshes/api-errors";

const FIELDS = [
  { name: "currentPassword", label: "currentPassword", autoComplete: "current-password" },
  { name: "newPassword", label: "newPassword", autoComplete: "new-password" },
  { name: "confirmPassword", label: "confirmPassword", autoComplete: "new-password" },
] as const;

/**
 * Changes the password: the current one, the new one twice. Errors are announced at their field (or
 * under the form); on success, how many other sessions were signed out.
 */
export function PasswordForm() {
  const t = useTranslations("account");
  const trpc = useTRPC();
  // A new key after a change: the form mounts again, empty.
  const [formKey, setFormKey] = useState(0);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const change = useMutation(
    trpc.my.changePassword.mutationOptions({
      onSuccess: () => (setErrors({}), setFormKey((k) => k + 1)),
      onError: (e) => setErrors(apiErrorKeys(e)),
    }),
  );
  const message = (key: string | undefined) =>
    key && t.has(`errors.${key}`) ? t(`errors.${key}`) : t("errors.unknown");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "");
    change.mutate({
      currentPassword: value("currentPassword"),
      newPassword: value("newPassword"),
      confirmPassword: value("confirmPassword"),
    });
  }

  return (
    <form key={formKey} className="form" onSubmit={submit} noValidate>
      {FIELDS.map((f) => {
        const error = errors[f.name]?.[0];
        const hint = f.name === "newPassword" ? `${f.name}-hint` : undefined;
        const describedBy = [hint, error ? `${f.name}-error` : undefined].filter(Boolean).join(" ") || undefined;
        return (
          <div className="field" key={f.name}>
            <label htmlFor={f.name}>{t(f.label)}</label>
            <input
              id={f.name}
              name={f.name}
              type="password"
              autoComplete={f.autoComplete}
              required
              maxLength={200}
              aria-invalid={!!error}
              aria-describedby={describedBy}
            />
            {hint ? (
              <small id={hint} className="muted">
                {t("passwordHint")}
              </small>
            ) : null}
            {error ? (
              <small id={`${f.name}-error`} className="field-error">
                {message(error)}
              </small>
            ) : null}
          </div>
        );
      })}
      {errors.form ? (
        <p className="alert" role="alert">
          {message(errors.form[0])}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? t("changing") : t("changePassword")}
        </button>
      </div>
      {change.isSuccess ? (
        <p role="status" className="notice">
          {t("passwordChanged", { count: change.data.signedOutSessions })}
        </p>
      ) : null}
    </form>
  );
}
