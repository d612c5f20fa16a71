import { describe, expect, it } from "vitest";
import { parseServerFrame } from "./server-frames";

const peer = { memberId: "m1", displayName: "Ana", role: "member", boxPubkey: null, online: true };

describe("peers frames", () => {
  it("keep whether a peer can receive now and whose session it is", () => {
    const frame = parseServerFrame(
      JSON.stringify({ v: 1, type: "peers", peers: [{ ...peer, receiving: false, parentMemberId: "p1" }] }),
    );
    expect(frame).toMatchObject({ type: "peers", peers: [{ online: true, receiving: false, parentMemberId: "p1" }] });
  });

  it("take an older broker's online peer as one that receives (it did not tell them apart)", () => {
    const frame = parseServerFrame(JSON.stringify({ v: 1, type: "peers", peers: [peer, { ...peer, online: false }] }));
    expect(frame).toMatchObject({
      peers: [
        { online: true, receiving: true, parentMemberId: null },
        { online: false, receiving: false, parentMemberId: null },
      ],
    });
  });
});
