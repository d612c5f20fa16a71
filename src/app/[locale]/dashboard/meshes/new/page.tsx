import { getTranslations, setRequestLocale } from "next-intl/server";
import { CreateMeshForm } from "@/components/meshes/create-mesh-form";
import { titleFrom } from "@/i18n/metadata";

export const generateMetadata = titleFrom("createMesh", "title");

export default async function NewMeshPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("createMesh");
  return (
    <section className="stack narrow">
      <h1>{t("title")}</h1>
      <p className="lead">{t("lead")}</p>
      <CreateMeshForm />
    </section>
  );
}
