import { describe, expect, it } from "vitest";
import { Batcher } from "./batcher";

describe("Batcher", () => {
  it("flushes items that arrive together as one batch and keeps their order", async () => {
    const calls: number[][] = [];
    const b = new Batcher<number, number>(async (items) => (calls.push(items), items.map((i) => i * 10)), {
      waitMs: 5,
      max: 100,
    });
    const results = await Promise.all([1, 2, 3].map((i) => b.add(i)));
    expect(results).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it("splits at max and runs one flush at a time, collecting what arrives meanwhile", async () => {
    const calls: number[][] = [];
    let active = 0;
    let maxActive = 0;
    const b = new Batcher<number, number>(
      async (items) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        calls.push(items);
        await new Promise((r) => setTimeout(r, 10));
        active -= 1;
        return items;
      },
      { waitMs: 1, max: 2 },
    );
    const all = [1, 2, 3, 4, 5].map((i) => b.add(i));
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(maxActive).toBe(1);
    expect(calls.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(calls.every((c) => c.length <= 2)).toBe(true);
  });

  it("counts units when items have a size: batches hold up to max units, an item larger than max goes alone", async () => {
    const calls: string[][][] = [];
    const b = new Batcher<string[], number>(
      async (items) => {
        calls.push(items);
        await new Promise((r) => setTimeout(r, 5));
        return items.map((i) => i.length);
      },
      { waitMs: 1, max: 5, size: (i) => i.length },
    );
    const items = [["a", "b", "c"], ["d", "e"], ["f"], ["g", "h", "i", "j", "k", "l", "m"], ["n"]];
    expect(await Promise.all(items.map((i) => b.add(i)))).toEqual([3, 2, 1, 7, 1]);
    expect(calls.flat(2)).toEqual("abcdefghijklmn".split(""));
    expect(calls.map((c) => c.flat().length)).toEqual([5, 1, 7, 1]);
    // Full at once: the first five units go without waiting for the timer.
    const quick = new Batcher<string[], void>(async (x) => x.map(() => undefined), {
      waitMs: 10_000,
      max: 2,
      size: (i) => i.length,
    });
    await quick.add(["x", "y"]);
  });

  it("starts the next batch before handing out the results of the one before, and keeps their order", async () => {
    const events: string[] = [];
    const b = new Batcher<number, number>(
      async (items) => {
        events.push(`flush ${items.join(",")}`);
        await new Promise((r) => setTimeout(r, 5));
        return items;
      },
      { waitMs: 1, max: 2 },
    );
    const all = [1, 2, 3, 4, 5].map((i) => b.add(i).then((r) => (events.push(`result ${r}`), r)));
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(events).toEqual([
      "flush 1,2",
      "flush 3,4",
      "result 1",
      "result 2",
      "flush 5",
      "result 3",
      "result 4",
      "result 5",
    ]);
  });

  it("rejects every item of a failed batch and goes on with the next", async () => {
    let fail = true;
    const b = new Batcher<number, number>(
      async (items) => {
        if (fail) throw new Error("db down");
        return items;
      },
      { waitMs: 1, max: 10 },
    );
    await expect(Promise.all([b.add(1), b.add(2)])).rejects.toThrow("db down");
    fail = false;
    expect(await b.add(3)).toBe(3);
  });

  it("drain waits for queued and running batches", async () => {
    const seen: number[] = [];
    const b = new Batcher<number, void>(
      async (items) => {
        await new Promise((r) => setTimeout(r, 5));
        seen.push(...items);
        return items.map(() => undefined);
      },
      { waitMs: 1_000, max: 10 },
    );
    void b.add(1);
    void b.add(2);
    await b.drain();
    expect(seen).toEqual([1, 2]);
    expect(b.pending).toBe(0);
  });
});
