import { getFormatter, getTranslations } from "next-intl/server";
import { CopyField } from "@/components/copy-field";
import { LocalTime } from "@/components/local-time";
import { InviteQr } from "@/components/meshes/invite-qr";
import { RevokeInviteButton } from "@/components/meshes/revoke-invite-button";
import { INVITE_DEFAULT_MAX_USES } from "@/server/services/invites/invite-state";

interface UsableInvite {
  id: string;
  role: "owner" | "admin" | "member" | "observer";
  expiresAt: Date;
  maxUses: number | null;
  usedCount: number;
  createdAt: Date;
  createdBy: { name: string | null };
  joinUrl: string;
  shortUrl: string | null;
}

/**
 * The mesh's invites that can still be used, for its owner and admins (the query decides which): who
 * issued each, when, until when, its uses, its short link to copy, its QR code and Revoke.
 */
export async function MeshInvites({ invites, more }: { invites: readonly UsableInvite[]; more: boolean }) {
  const t = await getTranslations("invite");
  const td = await getTranslations("meshDetail");
  const tm = await getTranslations("meshes");
  const format = await getFormatter();
  const now = new Date();
  if (invites.length === 0) return <p className="muted">{t("activeEmpty")}</p>;
  return (
    <>
      <ul className="cards" aria-label={t("activeTitle")}>
        {invites.map((i) => {
          // Invites issued before short links existed have none: their full link stands in.
          const link = i.shortUrl ?? i.joinUrl;
          return (
            <li key={i.id} className="card stack-sm" data-testid="active-invite">
              <p>
                <strong>{tm(`roles.${i.role}`)}</strong> · {td("inviteBy", { name: i.createdBy.name ?? "" })} ·{" "}
                {i.maxUses === null
                  ? td("usesUnlimited", { used: i.usedCount, max: INVITE_DEFAULT_MAX_USES })
                  : td("uses", { used: i.usedCount, max: i.maxUses })}
              </p>
              <p className="muted small">
                {t("createdOn")} <LocalTime iso={i.createdAt.toISOString()} />
                <br />
                {t("expiresWhen", { when: format.relativeTime(i.expiresAt, now) })} ·{" "}
                <LocalTime iso={i.expiresAt.toISOString()} />
              </p>
              <CopyField label={i.shortUrl ? t("shortUrl") : t("joinUrl")} value={link} testId="active-invite-link" />
              <InviteQr value={link} />
              <RevokeInviteButton inviteId={i.id} />
            </li>
          );
        })}
      </ul>
      {more ? <p className="muted small">{t("activeMore", { count: invites.length })}</p> : null}
    </>
  );
}
