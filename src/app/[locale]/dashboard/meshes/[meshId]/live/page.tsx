import { getTranslations, setRequestLocale } from "next-intl/server";
import { LiveStream } from "@/components/live/live-stream";
import { MeshNav } from "@/components/chat/mesh-nav";
import { Link } from "@/i18n/navigation";
import { loadMyMesh } from "@/trpc/load-mesh";
import { meshTitle } from "@/i18n/page-titles";

export const generateMetadata = meshTitle("live");

export default async function LivePage({ params }: { params: Promise<{ locale: string; meshId: string }> }) {
  const { locale, meshId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("live");
  const tb = await getTranslations("invite");
  const detail = await loadMyMesh(meshId);
  return (
    <section className="stack">
      <p>
        <Link href={`/dashboard/meshes/${meshId}`}>{tb("back")}</Link>
      </p>
      <h1>{t("title", { mesh: detail.mesh.name })}</h1>
      <MeshNav meshId={meshId} />
      <p className="muted">{t("lead")}</p>
      <LiveStream meshId={meshId} />
    </section>
  );
}
