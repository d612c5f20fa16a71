"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";
import type { THomeMeshesOut } from "@/server/services/home/home-overview.schema";
import { useTRPC } from "@/trpc/react";
import { HOME_MESHES_SHOWN, HOME_POLL_MS } from "./home-config";

/**
 * The signed-in user's meshes with people online of all their people, rendered on the server and then
 * refreshed every 15 s; a link to the dashboard when there are more than it shows.
 */
export function MeshOverview({ initial }: { initial: THomeMeshesOut }) {
  const t = useTranslations("home.overview");
  const tm = useTranslations("meshes");
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.my.homeMeshes.queryOptions({ limit: HOME_MESHES_SHOWN }),
    initialData: initial,
    staleTime: HOME_POLL_MS,
    refetchInterval: HOME_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
  const { items, total } = query.data;
  return (
    <section className="stack-sm" aria-labelledby="home-meshes">
      <div className="row-between">
        <h2 id="home-meshes">{t("meshesTitle")}</h2>
        {total > 0 ? (
          <Link className="button secondary small" href="/dashboard/meshes/new">
            {t("createMesh")}
          </Link>
        ) : null}
      </div>
      {query.isError ? (
        <p className="alert" role="alert">
          {t("loadFailed")}
        </p>
      ) : null}
      {items.length === 0 ? (
        <div className="card empty stack-sm">
          <p>{t("empty")}</p>
          <p>
            <Link className="button" href="/dashboard/meshes/new">
              {t("createMesh")}
            </Link>
          </p>
        </div>
      ) : (
        <ul className="cards">
          {items.map((m) => (
            <li key={m.id} className="card stack-sm" data-testid="home-mesh">
              <h3>
                <Link href={`/dashboard/meshes/${m.id}`}>{m.name}</Link>
              </h3>
              <p className="badges">
                <span>{t("role", { role: tm(`roles.${m.myRole}`) })}</span>
                {m.archived ? <span className="badge muted-badge">{t("archived")}</span> : null}
              </p>
              <p className="presence" data-testid="home-mesh-online">
                <span className={m.online > 0 ? "presence-dot on" : "presence-dot"} aria-hidden="true" />
                {t("online", { online: m.online, people: m.people })}
              </p>
              <p>
                <Link href={`/dashboard/meshes/${m.id}/live`} aria-label={t("openLiveOf", { mesh: m.name })}>
                  {t("openLive")}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
      {total > 0 ? (
        <p>
          <Link href="/dashboard">{t("seeAll", { count: total })}</Link>
        </p>
      ) : null}
    </section>
  );
}
