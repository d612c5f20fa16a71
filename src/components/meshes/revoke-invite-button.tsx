"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";

/** Revokes one invite after a confirmation, and refreshes the list it stands in. */
export function RevokeInviteButton({ inviteId }: { inviteId: string }) {
  const t = useTranslations("invite");
  const trpc = useTRPC();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation(trpc.my.revokeInvite.mutationOptions({ onSuccess: () => router.refresh() }));
  if (confirming) {
    return (
      <ConfirmBox
        text={t("revokeConfirm")}
        yes={t("revokeYes")}
        cancel={t("keepInvite")}
        pending={revoke.isPending}
        onYes={() => revoke.mutate({ inviteId }, { onSettled: () => setConfirming(false) })}
        onCancel={() => setConfirming(false)}
      />
    );
  }
  return (
    <button
      type="button"
      className="button danger secondary small"
      disabled={revoke.isPending}
      onClick={() => setConfirming(true)}
    >
      {revoke.isPending ? t("revoking") : t("revoke")}
    </button>
  );
}
