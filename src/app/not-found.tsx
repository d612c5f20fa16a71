import { redirect } from "next/navigation";
import { routing } from "@/i18n/routing";

// Paths outside any locale: hand them to the default locale, whose not-found page is translated.
export default function GlobalNotFound() {
  redirect(`/${routing.defaultLocale}/not-found`);
}
