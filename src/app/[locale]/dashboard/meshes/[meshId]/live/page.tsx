import { getTranslations, setRequestLocale } from "next-intl/server";
import { LiveStream } from "@/components/live/live-stream";
import { BackLink } from "@/components/ui/back-link";
import { MeshNav } from "@/components/chat/mesh-nav";
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
      <BackLink href={`/dashboard/meshes/${meshId}`}>{tb("back")}</BackLink>
      <h1>{t("title", { mesh: detail.mesh.name })}</h1>
      <MeshNav meshId={meshId} />
      <p className="muted">{t("lead")}</p>
      <LiveStream meshId={meshId} />
    </section>
  );
}
