import { getTranslations, setRequestLocale } from "next-intl/server";
import { LocalTime } from "@/components/local-time";
import { InviteForm } from "@/components/meshes/invite-form";
import { RevokeInviteButton } from "@/components/meshes/revoke-invite-button";
import { BackLink } from "@/components/ui/back-link";
import { loadMyMesh } from "@/trpc/load-mesh";
import { meshTitle } from "@/i18n/page-titles";
import { INVITE_DEFAULT_MAX_USES } from "@/server/services/invites/invite-state";

export const generateMetadata = meshTitle("invite");

export default async function InvitePage({ params }: { params: Promise<{ locale: string; meshId: string }> }) {
  const { locale, meshId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("invite");
  const td = await getTranslations("meshDetail");
  const tm = await getTranslations("meshes");
  const detail = await loadMyMesh(meshId);
  return (
    <section className="stack narrow">
      <BackLink href={`/dashboard/meshes/${meshId}`}>{t("back")}</BackLink>
      <h1>{t("title", { mesh: detail.mesh.name })}</h1>
      <p className="lead">{t("lead")}</p>
      <InviteForm meshId={meshId} canGrantAdmin={detail.isOwner} />
      <h2>{t("issuedTitle")}</h2>
      {detail.invites.length === 0 ? (
        <p className="muted">{td("noInvites")}</p>
      ) : (
        <ul className="list" aria-label={t("issuedTitle")}>
          {detail.invites.map((i) => (
            <li key={i.id} className="row">
              <span className={`state state-${i.state}`}>{td(`states.${i.state}`)}</span>
              <span>{tm(`roles.${i.role}`)}</span>
              <span>
                {i.maxUses === null
                  ? td("usesUnlimited", { used: i.usedCount, max: INVITE_DEFAULT_MAX_USES })
                  : td("uses", { used: i.usedCount, max: i.maxUses })}
              </span>
              <span>
                {td("expires")} <LocalTime iso={i.expiresAt.toISOString()} />
              </span>
              {i.state === "valid" ? <RevokeInviteButton inviteId={i.id} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
