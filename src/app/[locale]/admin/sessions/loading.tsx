import { getTranslations } from "next-intl/server";
import { LoadingState } from "@/components/ui/states";

// Only on the list pages: a loading state above a detail page would start the answer as 200 before
// the page could say the object is absent (404).
export default async function AdminLoading() {
  const t = await getTranslations("admin");
  return <LoadingState label={t("loading")} rows={4} />;
}
