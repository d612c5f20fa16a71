import { afterEach, describe, expect, it, vi } from "vitest";
import { AckBatcher, backoffDelay, PendingRequests, SeenIds, SendOutbox } from "./delivery";
import { afterEnd } from "./socket";

afterEach(() => vi.useRealTimers());

describe("reconnect backoff", () => {
  it("doubles from the initial delay up to the cap, with half of each step random", () => {
    const opts = { initialMs: 500, maxMs: 30_000 };
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, opts, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, opts, () => 0))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelay(20, opts, () => 1)).toBe(30_000);
    expect(backoffDelay(1000, opts, () => 0)).toBe(15_000);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(4, opts)));
    expect(spread.size).toBeGreaterThan(1);
    for (const d of spread) expect(d >= 4000 && d <= 8000).toBe(true);
  });
});

describe("seen message ids", () => {
  it("recognises ids it holds and forgets the oldest past its capacity", () => {
    const seen = new SeenIds(3);
    for (const id of ["a", "b", "c", "a"]) seen.add(id);
    expect(seen.size).toBe(3);
    seen.add("d");
    expect([seen.has("a"), seen.has("b"), seen.has("d")]).toEqual([false, true, true]);
  });
});

describe("ack batching", () => {
  it("sends the ids of one burst in one frame, and splits above the frame limit", () => {
    vi.useFakeTimers();
    const sent: string[][] = [];
    const acks = new AckBatcher((ids) => sent.push(ids), 20, 3);
    acks.add("a");
    acks.add("b");
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(sent).toEqual([["a", "b"]]);
    for (const id of ["c", "d", "e", "f"]) acks.add(id);
    expect(sent).toEqual([
      ["a", "b"],
      ["c", "d", "e"],
    ]);
    acks.flush();
    expect(sent.at(-1)).toEqual(["f"]);
    acks.add("g");
    acks.drop();
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(3);
  });
});

describe("after a socket ended", () => {
  it("stops for good on a removal, an archived mesh or a refusal a retry cannot fix", () => {
    const removed = afterEnd({ kind: "closed", code: 4403, reason: "removed" }, 0);
    expect("fatal" in removed && removed.fatal.code).toBe("removed");
    const archived = afterEnd({ kind: "closed", code: 4410, reason: "" }, 0);
    expect("fatal" in archived && archived.fatal.code).toBe("CLOSED_4410");
    for (const status of [400, 401, 403, 404]) expect("fatal" in afterEnd({ kind: "refused", status }, 3)).toBe(true);
    expect(afterEnd({ kind: "refused", status: 403, code: "peer_banned" }, 0)).toMatchObject({
      fatal: { code: "peer_banned" },
    });
  });

  it("waits the broker's Retry-After plus up to a second, else backs off exponentially", () => {
    expect(afterEnd({ kind: "refused", status: 503, retryAfterSeconds: 4 }, 7, { random: () => 0 })).toEqual({
      delayMs: 4_000,
    });
    expect(afterEnd({ kind: "refused", status: 429, retryAfterSeconds: 4 }, 7, { random: () => 1 })).toEqual({
      delayMs: 5_000,
    });
    const backoff = { initialMs: 100, maxMs: 1_000 };
    expect(afterEnd({ kind: "closed", code: 1006, reason: "" }, 2, { backoff, random: () => 1 })).toEqual({
      delayMs: 400,
    });
    expect(afterEnd({ kind: "failed", message: "ECONNREFUSED" }, 9, { backoff, random: () => 1 })).toEqual({
      delayMs: 1_000,
    });
    expect(afterEnd({ kind: "refused", status: 503 }, 0, { backoff, random: () => 0 })).toEqual({ delayMs: 50 });
  });

  it("comes back within 2.5 s, anywhere in them, while the node is away; else the long back-off", () => {
    const away = [
      { kind: "failed", message: "ECONNREFUSED" },
      { kind: "closed", code: 1001, reason: "server shutting down" },
      { kind: "closed", code: 1006, reason: "" },
      { kind: "refused", status: 502 },
      { kind: "refused", status: 503 },
    ] as const;
    for (const end of away) {
      expect(afterEnd(end, 30, { random: () => 1 })).toEqual({ delayMs: 2_500 });
      expect(afterEnd(end, 30, { random: () => 0 })).toEqual({ delayMs: 0 });
      expect(afterEnd(end, 0, { random: () => 1 })).toEqual({ delayMs: 500 });
    }
    // A refusal of this client (a full mesh) is no node restart: the long back-off, 30 s at most.
    expect(afterEnd({ kind: "closed", code: 1008, reason: "capacity" }, 30, { random: () => 1 })).toEqual({
      delayMs: 30_000,
    });
    // A Retry-After longer than the restart back-off is waited in full.
    expect(afterEnd({ kind: "refused", status: 503, retryAfterSeconds: 5 }, 0, { random: () => 0 })).toEqual({
      delayMs: 5_000,
    });
  });
});

describe("pending requests", () => {
  it("settles each request once, by id, and fails all that wait", async () => {
    const pending = new PendingRequests<{ id: string; n: number }, string>();
    const a = pending.wait({ id: "a", n: 1 });
    const b = pending.wait({ id: "b", n: 2 });
    const c = pending.wait({ id: "c", n: 3 });
    expect(pending.frames().map((f) => f.n)).toEqual([1, 2, 3]);
    expect(pending.settle("a", { answer: "yes" })).toBe(true);
    expect(pending.settle("a", { answer: "again" })).toBe(false);
    expect(pending.settle("b", { error: new Error("no") })).toBe(true);
    await expect(a).resolves.toBe("yes");
    await expect(b).rejects.toThrow("no");
    expect(pending.get("c")?.n).toBe(3);
    pending.failAll(new Error("closed"));
    await expect(c).rejects.toThrow("closed");
    expect(pending.frames()).toEqual([]);
  });
});

describe("the ordered outbox of sends", () => {
  const outbox = () => {
    const wire: string[] = [];
    const box = new SendOutbox<{ id: string }>((f) => wire.push(f.id));
    const add = (...ids: string[]) => ids.forEach((id) => box.fill(box.reserve(), { id }));
    return { box, wire, add };
  };

  it("sends at once, pipelined, in the order the sends were made (a send waiting for its frame holds the later ones)", () => {
    const { box, wire, add } = outbox();
    add("a");
    expect(wire).toEqual([]); // offline: nothing goes
    box.connected();
    add("b", "c");
    expect(wire).toEqual(["a", "b", "c"]);
    const slow = box.reserve();
    add("e");
    expect(wire).toEqual(["a", "b", "c"]);
    box.fill(slow, { id: "d" });
    expect(wire).toEqual(["a", "b", "c", "d", "e"]);
    for (const id of ["a", "b", "c", "d", "e"]) box.settled(id);
    expect(box.size).toBe(0);
    const dropped = box.reserve();
    add("f");
    box.release(dropped);
    expect(wire.at(-1)).toBe("f");
  });

  it("after a refusal sends nothing new; once all on the wire are answered and the wait is over, the first unconfirmed goes alone, then the rest in order", () => {
    vi.useFakeTimers();
    const { box, wire, add } = outbox();
    box.connected();
    add("a", "b", "c", "d");
    wire.length = 0;
    box.refused("b", 500);
    add("e");
    box.settled("a");
    vi.advanceTimersByTime(600);
    expect(wire).toEqual([]); // c and d are still on the wire
    box.refused("d", 500);
    box.refused("c", 500);
    expect(wire).toEqual(["b"]); // the wait is over and nothing is on the wire: the head, alone
    box.refused("b", 500);
    vi.advanceTimersByTime(499);
    expect(wire).toEqual(["b"]);
    vi.advanceTimersByTime(1);
    expect(wire).toEqual(["b", "b"]);
    box.settled("b");
    expect(wire).toEqual(["b", "b", "c", "d", "e"]);
    add("f");
    expect(wire.at(-1)).toBe("f");
  });

  it("sends every unconfirmed send again, in order, after a reconnect", () => {
    vi.useFakeTimers();
    const { box, wire, add } = outbox();
    box.connected();
    add("a", "b", "c");
    box.refused("a", 500);
    box.disconnected();
    vi.advanceTimersByTime(1_000);
    wire.length = 0;
    add("d");
    box.connected();
    expect(wire).toEqual(["a", "b", "c", "d"]);
  });
});
