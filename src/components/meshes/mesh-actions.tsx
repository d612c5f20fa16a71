"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { ConfirmBox } from "@/components/confirm-box";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "./api-errors";

/** Archive (owner, with confirmation) or leave (member, with confirmation). */
export function MeshActions({ meshId, isOwner, archived }: { meshId: string; isOwner: boolean; archived: boolean }) {
  const t = useTranslations("meshDetail");
  const te = useTranslations("errorsApi");
  const router = useRouter();
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(firstApiErrorKey(e));
  const archive = useMutation(
    trpc.my.archiveMesh.mutationOptions({ onSuccess: () => (setConfirming(false), router.refresh()), onError }),
  );
  const leave = useMutation(trpc.my.leaveMesh.mutationOptions({ onSuccess: () => router.push("/dashboard"), onError }));
  if (isOwner && archived) return null;
  const action = isOwner ? archive : leave;
  return (
    <div className="stack-sm">
      {error ? (
        <p className="alert" role="alert">
          {te.has(error) ? te(error) : te("generic")}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmBox
          text={isOwner ? t("archiveConfirm") : t("leaveConfirm")}
          yes={isOwner ? t("archiveYes") : t("leaveYes")}
          cancel={t("cancel")}
          pending={action.isPending}
          onYes={() => action.mutate({ meshId })}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <p>
          <button type="button" className="button danger secondary small" onClick={() => setConfirming(true)}>
            {isOwner ? t("archive") : t("leave")}
          </button>
        </p>
      )}
    </div>
  );
}
