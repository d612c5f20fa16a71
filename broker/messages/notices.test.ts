import { afterEach, describe, expect, it, vi } from "vitest";
import type { StoredNotice } from "./hub-types";
import { NoticeGate } from "./notices";

const notice = (n: string, a: string, b: string): StoredNotice => ({ n, a, b, m: ["mesh"] });

function gate(linked: Set<string>) {
  const read: string[] = [];
  const g = new NoticeGate({
    graceMs: 1_000,
    linked: (node) => linked.has(node),
    read: (x) => read.push(`${x.n}:${x.a}-${x.b}`),
  });
  return { g, read };
}

afterEach(() => vi.useRealTimers());

describe("notifications of other nodes' batches", () => {
  it("are read back at once from a node without a link", () => {
    const { g, read } = gate(new Set());
    g.notice(notice("A", "1", "5"));
    expect(read).toEqual(["A:1-5"]);
  });

  it("from a linked node wait for the link's copy, and are not read when it comes, before or after them", () => {
    vi.useFakeTimers();
    const { g, read } = gate(new Set(["A"]));
    g.notice(notice("A", "1", "5"));
    expect(g.pending).toBe(1);
    g.relayedBatch("A", "1", "5");
    g.relayedBatch("A", "6", "9");
    g.notice(notice("A", "6", "9"));
    vi.advanceTimersByTime(5_000);
    expect(read).toEqual([]);
    expect(g.pending).toBe(0);
  });

  it("are read when the copy does not come within the grace, or at once when the link closes", () => {
    vi.useFakeTimers();
    const { g, read } = gate(new Set(["A", "B"]));
    g.notice(notice("A", "1", "5"));
    g.notice(notice("B", "2", "3"));
    vi.advanceTimersByTime(999);
    expect(read).toEqual([]);
    g.linkDown("B");
    expect(read).toEqual(["B:2-3"]);
    vi.advanceTimersByTime(1);
    expect(read).toEqual(["B:2-3", "A:1-5"]);
    // A copy that came for another range does not answer this one.
    g.relayedBatch("A", "7", "8");
    g.notice(notice("A", "7", "9"));
    vi.advanceTimersByTime(1_000);
    expect(read).toEqual(["B:2-3", "A:1-5", "A:7-9"]);
  });

  it("remember copies that came first for a bounded number and time", () => {
    vi.useFakeTimers();
    const read: string[] = [];
    const g = new NoticeGate({
      graceMs: 10,
      linked: () => true,
      read: (x) => read.push(x.a),
      maxRelayed: 3,
      relayedForMs: 1_000,
    });
    for (let i = 0; i < 5; i++) g.relayedBatch("A", String(i), String(i));
    // The two oldest were dropped to keep three.
    g.notice(notice("A", "0", "0"));
    g.notice(notice("A", "4", "4"));
    vi.advanceTimersByTime(10);
    expect(read).toEqual(["0"]);
    vi.advanceTimersByTime(2_000);
    g.relayedBatch("A", "9", "9");
    g.notice(notice("A", "3", "3"));
    vi.advanceTimersByTime(10);
    expect(read).toEqual(["0", "3"]);
  });
});
