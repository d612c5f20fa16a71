"use client";

import { useFormatter } from "next-intl";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverZone = () => "UTC";

/**
 * A date in the visitor's locale and time zone. The server renders it in UTC (it cannot know the
 * visitor's zone); right after hydration React re-renders it in the browser's zone, without a mismatch.
 */
export function LocalTime({ iso, withTime = true }: { iso: string; withTime?: boolean }) {
  const format = useFormatter();
  const zone = useSyncExternalStore(subscribe, browserZone, serverZone);
  const text = format.dateTime(new Date(iso), {
    dateStyle: "medium",
    ...(withTime ? { timeStyle: "short" } : {}),
    timeZone: zone,
  });
  return <time dateTime={iso}>{text}</time>;
}
