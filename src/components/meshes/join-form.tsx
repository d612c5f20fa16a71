"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "./api-errors";

/** A signed-in user joins the mesh of an invite in the browser (POST /api/my/join), then opens it. */
export function JoinForm({ token, defaultName }: { token: string; defaultName: string }) {
  const t = useTranslations("join");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const router = useRouter();
  const [displayName, setDisplayName] = useState(defaultName);
  const [error, setError] = useState<string | null>(null);
  const join = useMutation(
    trpc.my.joinMesh.mutationOptions({
      onSuccess: (joined) => router.push(`/dashboard/meshes/${joined.meshId}`),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  const nameError = displayName.trim().length === 0;
  return (
    <form
      className="stack-sm"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        join.mutate({ token, displayName: displayName.trim() });
      }}
    >
      <div className="field">
        <label htmlFor="join-display-name">{t("displayNameLabel")}</label>
        <input
          id="join-display-name"
          value={displayName}
          maxLength={80}
          required
          onChange={(e) => setDisplayName(e.target.value)}
          aria-describedby="join-display-name-hint"
        />
        <small id="join-display-name-hint" className="muted">
          {t("displayNameHint")}
        </small>
      </div>
      {error ? (
        <p className="alert" role="alert" data-testid="join-error">
          {te.has(error) ? te(error as "generic") : te("generic")}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="button" disabled={join.isPending || nameError} data-testid="join-submit">
          {join.isPending ? t("joining") : t("submit")}
        </button>
      </div>
    </form>
  );
}
