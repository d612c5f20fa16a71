import { getLocale } from "next-intl/server";
import { formatsFor, type Formats } from "./format";

/** The request locale's formatters (src/i18n/format.ts) in a server component. */
export async function getFormats(): Promise<Formats> {
  return formatsFor(await getLocale());
}
