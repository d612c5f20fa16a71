"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { ConfirmBox } from "@/components/confirm-box";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "./api-errors";

type Role = "admin" | "member" | "observer";

/**
 * A manager's controls on one member: change the role (applies at once, reversible) and remove,
 * optionally banning the peer key, after a confirmation (docs/mesh-api.md, "Members").
 */
export function MemberControls({
  meshId,
  memberId,
  name,
  role,
  roles,
  canBan,
}: {
  meshId: string;
  memberId: string;
  name: string;
  role: Role;
  roles: readonly Role[];
  canBan: boolean;
}) {
  const t = useTranslations("meshDetail");
  const tm = useTranslations("meshes");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const router = useRouter();
  const ids = useId();
  const [confirming, setConfirming] = useState(false);
  const [ban, setBan] = useState(false);
  const [nextRole, setNextRole] = useState<Role>(role);
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(firstApiErrorKey(e));
  const remove = useMutation(
    trpc.my.removeMember.mutationOptions({ onSuccess: () => (setConfirming(false), router.refresh()), onError }),
  );
  const changeRole = useMutation(
    trpc.my.changeMemberRole.mutationOptions({ onSuccess: () => router.refresh(), onError }),
  );
  return (
    <div className="stack-sm">
      <div className="row">
        <label htmlFor={`${ids}-role`} className="visually-hidden">
          {t("roleFor", { name })}
        </label>
        <select id={`${ids}-role`} value={nextRole} onChange={(e) => setNextRole(e.target.value as Role)}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {tm(`roles.${r}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button secondary small"
          disabled={nextRole === role || changeRole.isPending}
          onClick={() => changeRole.mutate({ meshId, memberId, role: nextRole })}
        >
          {t("changeRole")}
        </button>
        {confirming ? null : (
          <button
            type="button"
            className="button secondary small"
            onClick={() => (setError(null), setConfirming(true))}
          >
            {t("remove")}
          </button>
        )}
      </div>
      {confirming ? (
        <ConfirmBox
          text={t("removeConfirm", { name })}
          yes={ban ? t("removeAndBanYes") : t("removeYes")}
          cancel={t("cancel")}
          pending={remove.isPending}
          onYes={() => remove.mutate({ meshId, memberId, ban })}
          onCancel={() => setConfirming(false)}
        >
          {canBan ? (
            <label className="row">
              <input type="checkbox" checked={ban} onChange={(e) => setBan(e.target.checked)} /> {t("banToo")}
            </label>
          ) : null}
        </ConfirmBox>
      ) : null}
      {error ? (
        <p className="alert" role="alert">
          {te.has(error) ? te(error) : te("generic")}
        </p>
      ) : null}
    </div>
  );
}

/** Lifts a ban (reversible: the peer key can be banned again by removing it). */
export function LiftBanButton({ meshId, peerPubkey }: { meshId: string; peerPubkey: string }) {
  const t = useTranslations("meshDetail");
  const trpc = useTRPC();
  const router = useRouter();
  const unban = useMutation(trpc.my.unbanPeer.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={unban.isPending}
      onClick={() => unban.mutate({ meshId, peerPubkey })}
    >
      {t("liftBan")}
    </button>
  );
}
