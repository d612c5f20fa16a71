import { getTranslations } from "next-intl/server";
import { StatusPage } from "@/components/ui/status-page";
import { Link } from "@/i18n/navigation";
import { ParamsLink } from "./params-link";

/** Where the not-found page of a kind of object leads back to: the list of that kind. */
export type NotFoundList = "meshes" | "adminMeshes" | "jobs" | "batches" | "schedules" | "pipelines" | "executions";

const HREF: Record<Exclude<NotFoundList, "executions">, string> = {
  meshes: "/dashboard",
  adminMeshes: "/admin/meshes",
  jobs: "/engine/jobs",
  batches: "/engine/batches",
  schedules: "/engine/schedules",
  pipelines: "/pipelines",
};

/**
 * The not-found page of one kind of object (a mesh, a job, a run...): what happened and a link back
 * to its list (the generic page only leads home). Served with HTTP status 404 by Next's notFound().
 */
export async function NotFoundBack({ list, pattern }: { list: NotFoundList; pattern?: string }) {
  const t = await getTranslations("errors");
  const tt = await getTranslations("truth.backTo");
  return (
    <StatusPage
      kind="notFound"
      code="404"
      title={t("notFoundTitle")}
      actions={
        list === "executions" ? (
          <ParamsLink pattern={pattern ?? "/pipelines"} className="button">
            {tt(list)}
          </ParamsLink>
        ) : (
          <Link href={HREF[list]} className="button">
            {tt(list)}
          </Link>
        )
      }
    >
      <p>{t("notFoundBody")}</p>
    </StatusPage>
  );
}
