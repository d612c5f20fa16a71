import { getTranslations, setRequestLocale } from "next-intl/server";
import { ChatView } from "@/components/chat/chat-view";
import { MeshNav } from "@/components/chat/mesh-nav";
import { loadMyMesh } from "@/trpc/load-mesh";
import { meshTitle } from "@/i18n/page-titles";

export const generateMetadata = meshTitle("chat");

export default async function ChatPage({ params }: { params: Promise<{ locale: string; meshId: string }> }) {
  const { locale, meshId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("chat");
  const detail = await loadMyMesh(meshId);
  return (
    <section className="stack">
      <h1>{t("title", { mesh: detail.mesh.name })}</h1>
      <MeshNav meshId={meshId} />
      <p className="muted">{t("lead")}</p>
      <ChatView meshId={meshId} />
    </section>
  );
}
