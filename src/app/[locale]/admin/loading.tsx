import { getTranslations } from "next-intl/server";
import { LoadingState } from "@/components/ui/states";

export default async function AdminLoading() {
  const t = await getTranslations("admin");
  return <LoadingState label={t("loading")} rows={4} />;
}
