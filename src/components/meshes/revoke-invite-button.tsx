"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";

/** Revokes one invite and refreshes the list it stands in. */
export function RevokeInviteButton({ inviteId }: { inviteId: string }) {
  const t = useTranslations("invite");
  const trpc = useTRPC();
  const router = useRouter();
  const revoke = useMutation(trpc.my.revokeInvite.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <button type="button" className="button secondary small" disabled={revoke.isPending} onClick={() => revoke.mutate({ inviteId })}>
      {revoke.isPending ? t("revoking") : t("revoke")}
    </button>
  );
}
