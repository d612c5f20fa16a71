import { useLocale } from "next-intl";
import { formatsFor, type Formats } from "./format";

/** The page locale's formatters (src/i18n/format.ts) in a component (client, or a server one that is not async). */
export function useFormats(): Formats {
  return formatsFor(useLocale());
}
