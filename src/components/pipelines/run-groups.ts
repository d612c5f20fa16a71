/** A run as the pages' picker gets it (pipelines.selection). */
export interface PickableRun {
  id: string;
  queued_at: Date | string;
  finished_at: Date | string | null;
  review_count: number | null;
  places: { place_key: string; origin: string | null; name: string | null; reviews: number | null }[];
}

/** The runs of one place (or of none: `place` null), newest first. */
export interface RunGroup<R extends PickableRun = PickableRun> {
  key: string;
  place: { place_key: string; origin: string | null; name: string | null } | null;
  runs: R[];
}

/** Key of the group of runs without a recorded place (never a place key: those hold no NUL). */
export const NO_PLACE = "\u0000";

const placeKey = (p: { place_key: string; origin: string | null }) => `${p.origin ?? ""}\u0001${p.place_key}`;

/**
 * Groups runs by the places they analysed, for the picker's place select: a run over several places
 * is in each of them; runs without a place come last. Keeps the order of `runs` (newest first) in
 * each group, and orders the places by their newest run. A place's name is the newest one known. A
 * run older than stored origins joins a group of the same place key (runs come newest first).
 */
export function groupRunsByPlace<R extends PickableRun>(runs: R[]): RunGroup<R>[] {
  const groups = new Map<string, RunGroup<R>>();
  const other: RunGroup<R> = { key: NO_PLACE, place: null, runs: [] };
  for (const run of runs) {
    if (run.places.length === 0) other.runs.push(run);
    for (const p of run.places) {
      // A run older than stored origins (origin null) joins a group of its place key, if there is one.
      const known =
        p.origin === null ? [...groups.values()].find((g) => g.place?.place_key === p.place_key) : undefined;
      const key = known?.key ?? placeKey(p);
      const group = groups.get(key) ?? {
        key,
        place: { place_key: p.place_key, origin: p.origin, name: p.name },
        runs: [],
      };
      if (group.place && !group.place.name && p.name) group.place.name = p.name;
      group.runs.push(run);
      groups.set(key, group);
    }
  }
  return [...groups.values(), ...(other.runs.length ? [other] : [])];
}
