import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

/** A page's generateMetadata that titles it with one translated message. */
export function titleFrom(namespace: string, key: string) {
  return async ({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> => {
    const { locale } = await params;
    const t = await getTranslations({ locale, namespace });
    return { title: t(key) };
  };
}
