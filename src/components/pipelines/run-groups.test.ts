import { describe, expect, it } from "vitest";
import { groupRunsByPlace, NO_PLACE, type PickableRun } from "./run-groups";

const run = (id: string, places: PickableRun["places"]): PickableRun => ({
  id,
  queued_at: "2026-11-01T00:00:00Z",
  finished_at: null,
  review_count: 1,
  places,
});
const place = (place_key: string, name: string | null = null, origin: string | null = "https://p.test") => ({
  place_key,
  origin,
  name,
  reviews: 1,
});

describe("groupRunsByPlace", () => {
  it("groups runs by place in the order of their newest run, a run over two places in both, runs without a place last", () => {
    const groups = groupRunsByPlace([
      run("r3", [place("b", "Bar B")]),
      run("r2", []),
      run("r1", [place("a"), place("b")]),
      run("r0", [place("a", "Café A")]),
    ]);
    expect(groups.map((g) => [g.place?.place_key ?? null, g.runs.map((r) => r.id)])).toEqual([
      ["b", ["r3", "r1"]],
      ["a", ["r1", "r0"]],
      [null, ["r2"]],
    ]);
    expect(groups.at(-1)?.key).toBe(NO_PLACE);
    // The newest known name, also when the newest run did not record one.
    expect(groups.find((g) => g.place?.place_key === "a")?.place?.name).toBe("Café A");
  });

  it("keeps the same key on two origins apart; an older run without an origin joins its key's group", () => {
    const groups = groupRunsByPlace([
      run("x", [place("k", null, "https://one.test")]),
      run("y", [place("k", null, "https://two.test")]),
      run("old", [place("k", null, null)]),
    ]);
    expect(groups.map((g) => g.runs.map((r) => r.id))).toEqual([["x", "old"], ["y"]]);
  });
});
