import { describe, expect, it } from "vitest";
import { FlowControl } from "./flow";
import type { ConnectionRegistry, PeerConnection } from "./registry";

const KIB = 1024;
const conn = (buffered: number) =>
  ({
    meshId: "m",
    memberId: "a",
    ws: { bufferedAmount: buffered, readyState: 1, OPEN: 1 },
  }) as unknown as PeerConnection;

function flowOf(conns: PeerConnection[]) {
  const registry = { ofMember: () => conns, all: () => conns } as unknown as ConnectionRegistry;
  const metrics = { slowConsumers: { inc: () => {} } } as never;
  return new FlowControl(
    { maxBuffered: 1024 * KIB, maxBufferedPerMember: 2048 * KIB, slowConsumerMs: 30_000 },
    { registry, metrics, log: { info: () => {} } as never },
  );
}

describe("flow control budgets", () => {
  it("gives a connection the least of its own room and its member's", () => {
    const reader = conn(0);
    const flow = flowOf([reader, conn(900 * KIB), conn(600 * KIB)]);
    expect(flow.room(reader)).toBe(548 * KIB);
    expect(flow.overBudget(reader)).toBe(false);
  });

  it("keeps 64 KiB for a connection whose siblings hold the member's whole budget, so it is never starved", async () => {
    const reader = conn(0);
    const stalled = Array.from({ length: 10 }, () => conn(1000 * KIB));
    const flow = flowOf([reader, ...stalled]);
    expect(flow.room(reader)).toBe(64 * KIB);
    expect(await flow.waitForRoom(reader)).toBe(true);
    // The stalled ones are over the member's budget and get nothing more.
    expect(flow.overBudget(stalled[0]!)).toBe(true);
    expect(flow.room(stalled[0]!)).toBe(0);
  });
});
