import { useFormats } from "@/i18n/use-formats";

/**
 * recharts formatters in the page's locale (src/i18n/format.ts): axis ticks, tooltip values and
 * tooltip titles write numbers grouped ("6.030"), months as "März 2025" and instants as dates.
 * One function for every place recharts asks, so a chart cannot mix "6030" and "6.030".
 */
export function useChartFormat(): { value: (v: unknown) => string } {
  const f = useFormats();
  return { value: (v: unknown) => f.auto(v) };
}
