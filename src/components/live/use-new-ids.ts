"use client";

import { useState } from "react";

interface Seen {
  key: string;
  loaded: boolean;
  seen: Set<string>;
  fresh: Set<string>;
}

/**
 * Remembers the keys seen so far; returns the ones that arrived with the latest data (none at first
 * load). A key may carry a row's state (id and status), so a row that changed counts as new too.
 */
export function useNewIds(ids: string[], loaded: boolean): Set<string> {
  const key = ids.join(",");
  const [state, setState] = useState<Seen>({ key: "", loaded: false, seen: new Set(), fresh: new Set() });
  // Adjusting state while rendering when the input changed: React re-renders at once, no effect needed.
  if (loaded && state.key !== key) {
    const fresh = state.loaded ? new Set(ids.filter((id) => !state.seen.has(id))) : new Set<string>();
    setState({ key, loaded: true, seen: new Set([...state.seen, ...ids]), fresh });
  }
  return state.fresh;
}
