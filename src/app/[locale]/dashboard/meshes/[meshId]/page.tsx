import { getTranslations, setRequestLocale } from "next-intl/server";
import { LocalTime } from "@/components/local-time";
import { MeshActions } from "@/components/meshes/mesh-actions";
import { MeshNav } from "@/components/chat/mesh-nav";
import { LiftBanButton } from "@/components/meshes/member-controls";
import { MeshInvites } from "@/components/meshes/mesh-invites";
import { MembersList } from "@/components/meshes/members-list";
import { ReviewBotSection } from "@/components/meshes/review-bot-section";
import { serverCaller } from "@/trpc/server";
import { BackLink } from "@/components/ui/back-link";
import { Link } from "@/i18n/navigation";
import { loadMyMesh } from "@/trpc/load-mesh";
import { meshTitle } from "@/i18n/page-titles";
import { INVITE_DEFAULT_MAX_USES } from "@/server/services/invites/invite-state";

export const generateMetadata = meshTitle("mesh");

type Ban = Awaited<ReturnType<Awaited<ReturnType<typeof serverCaller>>["my"]["meshBans"]>>["items"][number];

/** One entry per banned person (with how many of their keys are banned), then one per anonymous key. */
function bannedEntries(bans: readonly Ban[]): { ban: Ban; keys: number }[] {
  const people = new Map<string, { ban: Ban; keys: number }>();
  const keys: { ban: Ban; keys: number }[] = [];
  for (const ban of bans) {
    if (!ban.userId) keys.push({ ban, keys: 1 });
    else {
      const entry = people.get(ban.userId) ?? { ban, keys: 0 };
      if (ban.peerPubkey) entry.keys += 1;
      people.set(ban.userId, entry);
    }
  }
  return [...people.values(), ...keys];
}

/** Usable invites per issuer (the removal dialog offers to revoke them). */
function usableInvitesBy(invites: readonly { state: string; createdBy: { id: string } }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of invites) if (i.state === "valid") counts[i.createdBy.id] = (counts[i.createdBy.id] ?? 0) + 1;
  return counts;
}

export default async function MeshPage({ params }: { params: Promise<{ locale: string; meshId: string }> }) {
  const { locale, meshId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("meshDetail");
  const tm = await getTranslations("meshes");
  const ti = await getTranslations("invite");
  const tl = await getTranslations("live");
  const tc = await getTranslations("chat");
  const detail = await loadMyMesh(meshId);
  const { mesh } = detail;
  // Owners manage every member but themselves, mesh admins members and observers (docs/mesh-api.md).
  const canManage = !mesh.archivedAt && (detail.myRole === "owner" || detail.myRole === "admin");
  const caller = await serverCaller();
  const bans = canManage ? (await caller.my.meshBans({ meshId: mesh.id })).items : [];
  // Owners and admins see the invites still usable, with their links (the query decides which).
  const usable = canManage ? await caller.my.meshInvites({ meshId: mesh.id }) : null;
  const reviewBot = await caller.my.reviewBot({ meshId: mesh.id });
  return (
    <section className="stack">
      <BackLink href="/dashboard">{t("back")}</BackLink>
      <h1>{mesh.name}</h1>
      <MeshNav meshId={mesh.id} />
      <p className="muted">
        {mesh.slug} · {tm(`visibility.${mesh.visibility}`)} · {tm(`transport.${mesh.transport}`)} ·{" "}
        {tm(`tier.${mesh.tier}`)} · {tm("role")}: {tm(`roles.${detail.myRole}`)}
      </p>
      {mesh.archivedAt ? (
        <p className="notice" role="status">
          {t("archivedNotice")} <LocalTime iso={mesh.archivedAt.toISOString()} />
        </p>
      ) : null}
      <div className="row">
        <Link className="button secondary" href={`/dashboard/meshes/${mesh.id}/live`}>
          {tl("openLive")}
        </Link>
        {!mesh.archivedAt ? (
          <Link className="button secondary" href={`/dashboard/meshes/${mesh.id}/chat`}>
            {tc("openChat")}
          </Link>
        ) : null}
        {!mesh.archivedAt && (detail.myRole === "owner" || detail.myRole === "admin") ? (
          <Link className="button" href={`/dashboard/meshes/${mesh.id}/invite`}>
            {ti("openInvite")}
          </Link>
        ) : null}
      </div>

      <h2>{t("members")}</h2>
      <MembersList
        meshId={mesh.id}
        members={detail.members}
        ownerUserId={mesh.ownerUserId}
        myRole={detail.myRole}
        canManage={canManage}
        invitesBy={usableInvitesBy(detail.invites)}
      />
      <ReviewBotSection
        meshId={mesh.id}
        canManage={reviewBot.canManage}
        bot={reviewBot.bot ? { ...reviewBot.bot, createdAt: reviewBot.bot.createdAt.toISOString() } : null}
      />
      {canManage ? (
        <>
          <h2>{t("bans")}</h2>
          {bans.length === 0 ? (
            <p className="muted">{t("noBans")}</p>
          ) : (
            <ul className="list">
              {bannedEntries(bans).map(({ ban: b, keys }) => (
                <li key={b.id} className="row" data-testid="ban">
                  <span>
                    <strong>{b.userName ?? b.displayName ?? t("unknownPeer")}</strong> ·{" "}
                    {b.userId ? (
                      t("bannedPerson", { keys })
                    ) : b.peerPubkey ? (
                      <code>{b.peerPubkey.slice(0, 12)}…</code>
                    ) : null}{" "}
                    · {t("bannedOn")} <LocalTime iso={b.bannedAt.toISOString()} withTime={false} />
                  </span>
                  <LiftBanButton
                    meshId={mesh.id}
                    {...(b.userId ? { userId: b.userId } : { peerPubkey: b.peerPubkey ?? "" })}
                  />
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}

      {usable ? (
        <>
          <h2>{ti("activeTitle")}</h2>
          <MeshInvites invites={usable.items} more={usable.more} />
        </>
      ) : (
        <>
          <h2>{t("invites")}</h2>
          {detail.invites.length === 0 ? (
            <p className="muted">{t("noInvites")}</p>
          ) : (
            <ul className="list">
              {detail.invites.map((i) => (
                <li key={i.id}>
                  <span className={`state state-${i.state}`}>{t(`states.${i.state}`)}</span> · {tm(`roles.${i.role}`)} ·{" "}
                  {i.maxUses === null
                    ? t("usesUnlimited", { used: i.usedCount, max: INVITE_DEFAULT_MAX_USES })
                    : t("uses", { used: i.usedCount, max: i.maxUses })}{" "}
                  · {t("expires")} <LocalTime iso={i.expiresAt.toISOString()} /> ·{" "}
                  {t("inviteBy", { name: i.createdBy.name ?? "" })}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {/* Leaving or archiving comes last, outlined in the danger colour: less prominent than Invite. */}
      <MeshActions meshId={mesh.id} isOwner={detail.isOwner} archived={!!mesh.archivedAt} />
      <p className="muted small">
        {t("ownerKey")}: <code>{mesh.ownerPubkey}</code>
      </p>
    </section>
  );
}
