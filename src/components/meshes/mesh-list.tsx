import { getTranslations } from "next-intl/server";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import type { RouterOutputs } from "@/trpc/types";

type Page = RouterOutputs["my"]["meshes"];

/** The signed-in user's meshes, one card each, with paging; an empty state that explains meshes. */
export async function MeshList({ data }: { data: Page }) {
  const t = await getTranslations("meshes");
  if (data.total === 0) {
    return (
      <div className="card empty stack">
        <h2>{t("emptyTitle")}</h2>
        <p>{t("emptyBody")}</p>
        <p>
          <Link className="button" href="/dashboard/meshes/new">
            {t("create")}
          </Link>
        </p>
      </div>
    );
  }
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div className="stack">
      <ul className="cards" aria-label={t("title")}>
        {data.items.map((mesh) => (
          <li key={mesh.id} className="card stack-sm">
            <h3>
              <Link href={`/dashboard/meshes/${mesh.id}`}>{mesh.name}</Link>
            </h3>
            <p className="muted">{mesh.slug}</p>
            <p className="badges">
              {mesh.isOwner ? <span className="badge tone-info">{t("ownerBadge")}</span> : null}
              {mesh.archivedAt ? <span className="badge muted-badge">{t("archivedBadge")}</span> : null}
              <span>
                {t("role")}: {t(`roles.${mesh.myRole}`)}
              </span>
            </p>
            <p className="muted">
              {t("members", { count: mesh.memberCount })} ·{" "}
              <LocalTime iso={mesh.createdAt.toISOString()} withTime={false} />
            </p>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="pager" aria-label={t("pageOf", { page: data.page, pages })}>
          {data.page > 1 ? <Link href={`/dashboard?page=${data.page - 1}`}>{t("previous")}</Link> : <span />}
          <span>{t("pageOf", { page: data.page, pages })}</span>
          {data.page < pages ? <Link href={`/dashboard?page=${data.page + 1}`}>{t("next")}</Link> : <span />}
        </nav>
      ) : null}
    </div>
  );
}
