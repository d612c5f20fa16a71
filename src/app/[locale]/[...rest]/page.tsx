import { notFound } from "next/navigation";

// Unknown paths under a locale render the translated not-found page of [locale].
export default function CatchAll() {
  notFound();
}
