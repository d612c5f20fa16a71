import { notFound } from "next/navigation";
import { titleFrom } from "@/i18n/metadata";

// Unknown paths under a locale render the translated not-found page of [locale], titled as such.
export const generateMetadata = titleFrom("errors", "notFoundTitle");

export default function CatchAll() {
  notFound();
}
