import { getTranslations } from "next-intl/server";
import { LocalTime } from "@/components/local-time";
import { MemberControls } from "@/components/meshes/member-controls";
import { ADMIN_ASSIGNABLE_ROLES, ASSIGNABLE_ROLES } from "@/server/services/meshes/member-roles";

type Role = "owner" | "admin" | "member" | "observer";
interface Member {
  id: string;
  userId: string | null;
  userName: string | null;
  displayName: string;
  role: Role;
  joinedAt: Date;
  revokedAt: Date | null;
  peerPubkey: string | null;
  status: string | null;
  statusText: string | null;
  online: boolean;
  /** A live connection of it takes messages; online without it, it only sends. */
  canReceive: boolean;
  /** Set for the member of one assistant session (made by the machine's member). */
  parentMemberId: string | null;
  /** A device of the person's browser (the chat page). */
  browserDevice: boolean;
  lastSeenAt: Date | null;
}

/**
 * The mesh's members as people: each user with the member they joined with in the browser and their
 * command-line devices, then the anonymous command-line peers; online or last seen, status, role,
 * joined, and the manager's controls where the viewer may use them (docs/mesh-api.md).
 */
export async function MembersList({
  meshId,
  members,
  ownerUserId,
  myRole,
  canManage,
  invitesBy = {},
}: {
  meshId: string;
  members: readonly Member[];
  ownerUserId: string;
  myRole: Role;
  canManage: boolean;
  /** Usable invites per issuing user (the removal dialog offers to revoke them). */
  invitesBy?: Readonly<Record<string, number>>;
}) {
  const t = await getTranslations("meshDetail");
  const tm = await getTranslations("meshes");
  const people = new Map<string, Member[]>();
  const anonymous: Member[] = [];
  for (const m of members) {
    if (m.userId) people.set(m.userId, [...(people.get(m.userId) ?? []), m]);
    else anonymous.push(m);
  }
  const row = (m: Member) => {
    const ownersOwn = m.userId === ownerUserId && m.peerPubkey === null;
    const manageable =
      canManage &&
      !m.revokedAt &&
      m.role !== "owner" &&
      !ownersOwn &&
      (m.userId !== ownerUserId || myRole === "owner") &&
      (myRole === "owner" || m.role === "member" || m.role === "observer");
    return (
      <li key={m.id} className="stack-sm" data-testid="member">
        <span>
          <strong>{m.displayName}</strong> · {tm(`roles.${m.role}`)} ·{" "}
          {m.browserDevice
            ? t("browserDevice")
            : m.parentMemberId
              ? t("session")
              : m.userId
                ? m.peerPubkey
                  ? t("device")
                  : t("inBrowser")
                : t("peer")}{" "}
          ·{" "}
          {m.revokedAt ? (
            <>
              {t("left")} <LocalTime iso={m.revokedAt.toISOString()} withTime={false} />
            </>
          ) : (
            <>
              {m.online ? (
                <span className={m.canReceive ? "badge tone-success" : "badge tone-neutral"}>
                  {m.canReceive ? t("online") : t("sendsOnly")}
                </span>
              ) : m.lastSeenAt ? (
                <>
                  {t("lastSeen")} <LocalTime iso={m.lastSeenAt.toISOString()} />
                </>
              ) : (
                t("neverSeen")
              )}{" "}
              · {t("joined")} <LocalTime iso={m.joinedAt.toISOString()} withTime={false} />
            </>
          )}
          {m.status && !m.revokedAt ? (
            <>
              {" · "}
              <span data-testid="member-status">
                {m.status}
                {m.statusText ? `: ${m.statusText}` : ""}
              </span>
            </>
          ) : null}
        </span>
        {manageable ? (
          <MemberControls
            meshId={meshId}
            memberId={m.id}
            name={m.displayName}
            role={m.role as "admin" | "member" | "observer"}
            roles={myRole === "owner" ? ASSIGNABLE_ROLES : ADMIN_ASSIGNABLE_ROLES}
            canBan={m.peerPubkey !== null || (m.userId !== null && m.userId !== ownerUserId)}
            person={m.userId !== null && m.userId !== ownerUserId}
            invitesIssued={m.userId && m.userId !== ownerUserId ? (invitesBy[m.userId] ?? 0) : 0}
          />
        ) : null}
      </li>
    );
  };
  if (members.length === 0) return <p className="muted">{t("noMembers")}</p>;
  return (
    <ul className="list" aria-label={t("members")}>
      {[...people.values()].map((own) => (
        <li key={own[0]!.userId} className="stack-sm" data-testid="person">
          <span>
            <strong>{own[0]!.userName ?? own[0]!.displayName}</strong>
            {own[0]!.userId === ownerUserId ? <> · {tm("roles.owner")}</> : null} ·{" "}
            {t("devices", { count: own.filter((m) => m.peerPubkey !== null && !m.revokedAt).length })}
          </span>
          <ul className="list">{own.map(row)}</ul>
        </li>
      ))}
      {anonymous.map(row)}
    </ul>
  );
}
