"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { apiErrorKeys } from "../meshes/api-errors";

/** Changes the display name; errors and the saved state are announced next to the field. */
export function ProfileForm({ name }: { name: string }) {
  const t = useTranslations("settings");
  const ta = useTranslations("auth.errors");
  const trpc = useTRPC();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const update = useMutation(
    trpc.my.updateProfile.mutationOptions({
      onSuccess: () => (setError(null), router.refresh()),
      onError: (e) => setError(apiErrorKeys(e).name?.[0] ?? "unknown"),
    }),
  );
  return (
    <form className="form" action={(form) => update.mutate({ name: String(form.get("name") ?? "") })}>
      <div className="field">
        <label htmlFor="profile-name">{t("displayName")}</label>
        <input
          id="profile-name"
          name="name"
          defaultValue={name}
          required
          maxLength={80}
          aria-invalid={!!error}
          aria-describedby={error ? "profile-name-error" : undefined}
        />
        {error ? (
          <small id="profile-name-error" className="field-error">
            {ta.has(error) ? ta(error) : ta("unknown")}
          </small>
        ) : null}
      </div>
      <div className="row">
        <button type="submit" className="button" disabled={update.isPending}>
          {update.isPending ? t("saving") : t("save")}
        </button>
        {update.isSuccess ? (
          <span role="status" className="muted">
            {t("saved")}
          </span>
        ) : null}
      </div>
    </form>
  );
}
