import { getTranslations } from "next-intl/server";
import { LoadingState } from "@/components/ui/states";

export default async function Loading() {
  const t = await getTranslations("engine");
  return <LoadingState label={t("loading")} rows={4} />;
}
