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
 * A manager's controls on one member: change the role (applies at once, reversible) and remove, after a
 * confirmation that says what removal does not do (they can come back with an invite they hold), offers
 * the ban (of the key, or of the person when the member is linked to an account) and, for a person who
 * issued invites still usable, to revoke them (on by default) (docs/mesh-api.md, "Members", "Bans").
 */
export function MemberControls({
  meshId,
  memberId,
  name,
  role,
  roles,
  canBan,
  person,
  invitesIssued,
}: {
  meshId: string;
  memberId: string;
  name: string;
  role: Role;
  roles: readonly Role[];
  canBan: boolean;
  /** Linked to an account (not the owner's): a ban is the person's. */
  person: boolean;
  /** Usable invites the person issued in this mesh. */
  invitesIssued: number;
}) {
  const t = useTranslations("meshDetail");
  const tm = useTranslations("meshes");
  const te = useTranslations("errorsApi");
  const trpc = useTRPC();
  const router = useRouter();
  const ids = useId();
  const [confirming, setConfirming] = useState(false);
  const [ban, setBan] = useState(false);
  const [revokeInvites, setRevokeInvites] = useState(true);
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
          onYes={() => remove.mutate({ meshId, memberId, ban, revokeInvites: invitesIssued > 0 && revokeInvites })}
          onCancel={() => setConfirming(false)}
        >
          {ban ? null : <p className="muted small">{t("rejoinNote")}</p>}
          {canBan ? (
            <label className="row">
              <input type="checkbox" checked={ban} onChange={(e) => setBan(e.target.checked)} />{" "}
              {person ? t("banPerson") : t("banToo")}
            </label>
          ) : null}
          {invitesIssued > 0 ? (
            <label className="row">
              <input type="checkbox" checked={revokeInvites} onChange={(e) => setRevokeInvites(e.target.checked)} />{" "}
              {t("revokeInvites", { count: invitesIssued })}
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

/** Lifts a ban of a key, or of a person with their keys (reversible: they can be banned again by removing them). */
export function LiftBanButton(props: { meshId: string } & ({ peerPubkey: string } | { userId: string })) {
  const t = useTranslations("meshDetail");
  const trpc = useTRPC();
  const router = useRouter();
  const onSuccess = () => router.refresh();
  const unbanPeer = useMutation(trpc.my.unbanPeer.mutationOptions({ onSuccess }));
  const unbanUser = useMutation(trpc.my.unbanUser.mutationOptions({ onSuccess }));
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={unbanPeer.isPending || unbanUser.isPending}
      onClick={() =>
        "userId" in props
          ? unbanUser.mutate({ meshId: props.meshId, userId: props.userId })
          : unbanPeer.mutate({ meshId: props.meshId, peerPubkey: props.peerPubkey })
      }
    >
      {t("liftBan")}
    </button>
  );
}
