"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { ConfirmBox } from "@/components/confirm-box";
import { LocalTime } from "@/components/local-time";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "./api-errors";

interface Bot {
  botId: string;
  displayName: string;
  peerPubkey: string;
  createdAt: string;
  online: boolean;
}

/**
 * The mesh page's review bot (docs/mesh-api.md, "Review bot"): the bot with its key, and for the owner
 * and mesh admins "Add review bot" (saying what it does and where its keys live) or "Remove" after a
 * confirmation. Shown to others only when the mesh has a bot.
 */
export function ReviewBotSection({ meshId, bot, canManage }: { meshId: string; bot: Bot | null; canManage: boolean }) {
  const t = useTranslations("reviewBot");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(firstApiErrorKey(e));
  const done = () => (setConfirming(false), setError(null), router.refresh());
  const add = useMutation(trpc.my.addReviewBot.mutationOptions({ onSuccess: done, onError }));
  const remove = useMutation(trpc.my.removeReviewBot.mutationOptions({ onSuccess: done, onError }));
  if (!bot && !canManage) return null;
  return (
    <section className="stack-sm" aria-labelledby="review-bot-title" data-testid="review-bot">
      <h2 id="review-bot-title">{t("title")}</h2>
      <p className="muted">{t("explain")}</p>
      {error ? (
        <p className="alert" role="alert">
          {te.has(error) ? te(error) : te("generic")}
        </p>
      ) : null}
      {bot ? (
        <p>
          <strong>{bot.displayName}</strong> · {bot.online ? t("online") : t("offline")} · {t("addedOn")}{" "}
          <LocalTime iso={bot.createdAt} withTime={false} /> · {t("key")} <code>{bot.peerPubkey.slice(0, 12)}…</code>
        </p>
      ) : (
        <p className="muted">{t("none")}</p>
      )}
      {!canManage ? null : bot ? (
        confirming ? (
          <ConfirmBox
            text={t("removeConfirm")}
            yes={t("removeYes")}
            cancel={t("cancel")}
            pending={remove.isPending}
            onYes={() => remove.mutate({ meshId })}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <p>
            <button type="button" className="button danger secondary small" onClick={() => setConfirming(true)}>
              {t("remove")}
            </button>
          </p>
        )
      ) : (
        <p>
          <button type="button" className="button" disabled={add.isPending} onClick={() => add.mutate({ meshId })}>
            {t("add")}
          </button>
        </p>
      )}
    </section>
  );
}
