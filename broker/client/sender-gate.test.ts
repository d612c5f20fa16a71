import { describe, expect, it } from "vitest";
import type { TPeerInfo } from "../protocol/frames";
import { SenderGate } from "./sender-gate";

const info = (memberId: string): TPeerInfo => ({
  memberId,
  displayName: memberId,
  role: "member",
  peerPubkey: null,
  boxPubkey: null,
  online: true,
  receiving: true,
  parentMemberId: null,
  status: null,
  statusText: null,
  groups: [],
  userName: null,
});

function gate() {
  let now = 0;
  const source = { keyEpoch: 0, members: ["ana", "bo"], reads: 0, fail: false };
  const g = new SenderGate(
    {
      get keyEpoch() {
        return source.keyEpoch;
      },
      peers: async () => {
        source.reads += 1;
        if (source.fail) throw new Error("no connection");
        return source.members.map(info);
      },
    },
    { maxAgeMs: 60_000, minRefreshMs: 2_000 },
    () => now,
  );
  return { g, source, tick: (ms: number) => (now += ms) };
}

describe("sender gate", () => {
  it("admits the live members, reading the list once while it is current", async () => {
    const { g, source } = gate();
    expect(await g.admits("ana")).toBe(true);
    expect(await g.admits("bo")).toBe(true);
    expect(source.reads).toBe(1);
  });

  it("reads the list again when the key epoch rose: a member removed since is no longer admitted", async () => {
    const { g, source, tick } = gate();
    expect(await g.admits("bo")).toBe(true);
    source.members = ["ana"];
    source.keyEpoch = 1; // a removal raises it
    tick(10);
    expect(await g.admits("bo")).toBe(false);
    expect(source.reads).toBe(2);
  });

  it("asks again for a sender it does not know (a member who just joined), but not for every message of a stranger", async () => {
    const { g, source, tick } = gate();
    expect(await g.admits("cy")).toBe(false);
    source.members = ["ana", "bo", "cy"];
    expect(await g.admits("cy")).toBe(false); // read a moment ago
    tick(2_001);
    expect(await g.admits("cy")).toBe(true);
    expect(source.reads).toBe(2);
    tick(60_001); // too old: read again
    expect(await g.admits("ana")).toBe(true);
    expect(source.reads).toBe(3);
  });

  it("decides nothing when the list cannot be read (the caller leaves the message unacked)", async () => {
    const { g, source } = gate();
    source.fail = true;
    await expect(g.admits("ana")).rejects.toThrow("no connection");
    source.fail = false;
    expect(await g.admits("ana")).toBe(true);
  });
});
