import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { DataTable } from "@/components/admin/data-table";
import { auditSentence, type Tr } from "@/components/audit-sentence";
import { LocalTime } from "@/components/local-time";
import { ShortId } from "@/components/short-id";
import { BackLink } from "@/components/ui/back-link";
import { Link } from "@/i18n/navigation";
import { notFoundTitle } from "@/i18n/page-titles";
import { adminCaller } from "@/trpc/admin";

/** The mesh in full, or null when absent or not even a mesh id (cached: the title and the page ask once). */
const load = cache(async (locale: string, meshId: string) => {
  const caller = await adminCaller(locale);
  try {
    const detail = await caller.admin.mesh({ meshId });
    return detail.mesh ? { ...detail, mesh: detail.mesh } : null;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") return null;
    throw error;
  }
});

/** The mesh's name, or "Page not found" when it is absent (the page answers 404). */
export async function generateMetadata({
  params,
}: {
  params: Promise<{ locale: string; meshId: string }>;
}): Promise<Metadata> {
  const { locale, meshId } = await params;
  const detail = await load(locale, meshId);
  if (detail) return { title: detail.mesh.name };
  return notFoundTitle(locale);
}

export default async function AdminMeshPage({ params }: { params: Promise<{ locale: string; meshId: string }> }) {
  const { locale, meshId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("admin");
  const tm = await getTranslations("meshes");
  const ts = await getTranslations("meshDetail.states");
  const live = (await getTranslations("live")) as unknown as Tr;
  const meshes = tm as unknown as Tr;
  const detail = await load(locale, meshId);
  if (!detail) notFound();
  const { mesh } = detail;
  const memberName = new Map(detail.members.map((m) => [m.id, m.displayName]));
  const region = (title: string) => t("table.scrollHint", { table: title });
  const empty = (text: string) => <p>{text}</p>;
  return (
    <section className="stack" aria-labelledby="admin-title">
      <BackLink href="/admin/meshes">{t("detail.back")}</BackLink>
      <h1 id="admin-title">{mesh.name}</h1>
      <dl className="facts card">
        <div>
          <dt>{t("audit.meshId")}</dt>
          <dd>
            <ShortId id={mesh.id} full />
          </dd>
        </div>
        <div>
          <dt>{t("meshes.col.slug")}</dt>
          <dd>{mesh.slug}</dd>
        </div>
        <div>
          <dt>{t("detail.owner")}</dt>
          <dd>{mesh.owner.email ?? mesh.owner.name}</dd>
        </div>
        <div>
          <dt>{t("detail.settings")}</dt>
          <dd>
            {tm(`visibility.${mesh.visibility}`)} · {tm(`transport.${mesh.transport}`)} · {tm(`tier.${mesh.tier}`)}
          </dd>
        </div>
        <div>
          <dt>{t("detail.created")}</dt>
          <dd>
            <LocalTime iso={mesh.createdAt.toISOString()} />
          </dd>
        </div>
        <div>
          <dt>{t("detail.state")}</dt>
          <dd>
            {mesh.archivedAt ? (
              <>
                {t("meshes.archivedYes")} · <LocalTime iso={mesh.archivedAt.toISOString()} />
              </>
            ) : (
              t("detail.active")
            )}
          </dd>
        </div>
        <div>
          <dt>{t("detail.pubkey")}</dt>
          <dd>
            <code>{mesh.ownerPubkey}</code>
          </dd>
        </div>
      </dl>
      <p className="row">
        <Link href={`/admin/audit?meshId=${mesh.id}`}>{t("detail.fullAudit")}</Link>
        <Link href={`/admin/sessions?q=${encodeURIComponent(mesh.slug)}`}>{t("detail.allSessions")}</Link>
        <Link href={`/admin/invites?q=${encodeURIComponent(mesh.slug)}`}>{t("detail.allInvites")}</Link>
      </p>

      <h2>{t("detail.members")}</h2>
      <DataTable
        caption={t("detail.members")}
        regionLabel={region(t("detail.members"))}
        empty={empty(t("detail.noMembers"))}
        columns={[
          { label: t("detail.member") },
          { label: t("detail.role") },
          { label: t("detail.joined") },
          { label: t("detail.left") },
        ]}
        rows={detail.members.map((m) => ({
          key: m.id,
          cells: [
            m.displayName,
            tm(`roles.${m.role}`),
            <LocalTime key="j" iso={m.joinedAt.toISOString()} />,
            m.revokedAt ? <LocalTime key="l" iso={m.revokedAt.toISOString()} /> : "",
          ],
        }))}
      />

      <h2>{t("detail.presences")}</h2>
      <DataTable
        caption={t("detail.presences")}
        regionLabel={region(t("detail.presences"))}
        empty={empty(t("detail.noPresences"))}
        columns={[
          { label: t("sessions.col.member") },
          { label: t("sessions.col.connection") },
          { label: t("sessions.col.node") },
          { label: t("sessions.col.connected") },
          { label: t("sessions.col.lastSeen") },
        ]}
        rows={detail.presences.map((p) => ({
          key: p.id,
          cells: [
            memberName.get(p.memberId) ?? p.memberId,
            p.disconnectedAt ? t("sessions.disconnected") : t("sessions.active"),
            p.nodeId,
            <LocalTime key="c" iso={p.connectedAt.toISOString()} />,
            <LocalTime key="l" iso={p.lastSeenAt.toISOString()} />,
          ],
        }))}
      />

      <h2>{t("detail.invites")}</h2>
      <DataTable
        caption={t("detail.invites")}
        regionLabel={region(t("detail.invites"))}
        empty={empty(t("detail.noInvites"))}
        columns={[
          { label: t("invites.col.role") },
          { label: t("invites.col.state") },
          { label: t("invites.col.uses") },
          { label: t("invites.col.createdBy") },
          { label: t("invites.col.expires") },
        ]}
        rows={detail.invites.map((i) => ({
          key: i.id,
          cells: [
            tm(`roles.${i.role}`),
            <span key="s" className={`state state-${i.state}`}>
              {ts(i.state)}
            </span>,
            i.maxUses === null
              ? t("invites.usesUnlimited", { used: i.usedCount })
              : t("invites.uses", { used: i.usedCount, max: i.maxUses }),
            i.createdBy.name ?? "",
            <LocalTime key="e" iso={i.expiresAt.toISOString()} />,
          ],
        }))}
      />

      <h2>{t("detail.audit")}</h2>
      <DataTable
        caption={t("detail.audit")}
        regionLabel={region(t("detail.audit"))}
        empty={empty(t("detail.noEvents"))}
        columns={[{ label: t("audit.col.date") }, { label: t("audit.col.type") }, { label: t("audit.col.what") }]}
        rows={detail.auditEvents.map((a) => ({
          key: a.id,
          cells: [
            <LocalTime key="d" iso={a.createdAt.toISOString()} />,
            t(`eventTypes.${a.eventType}`),
            auditSentence(live, meshes, a),
          ],
        }))}
      />
    </section>
  );
}
