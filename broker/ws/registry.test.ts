import { describe, expect, it } from "vitest";
import { ConnectionRegistry, type PeerConnection } from "./registry";

let next = 0;
const conn = (meshId: string, memberId: string) =>
  ({ id: `c${++next}`, meshId, memberId }) as unknown as PeerConnection;

describe("connection registry", () => {
  it("finds connections by mesh and by member, and forgets them when they go", () => {
    const r = new ConnectionRegistry();
    const a1 = conn("m1", "a");
    const a2 = conn("m1", "a");
    const b = conn("m1", "b");
    const c = conn("m2", "c");
    for (const x of [a1, a2, b, c, a1]) r.add(x);
    expect(r.size).toBe(4);
    expect(r.countInMesh("m1")).toBe(3);
    expect(r.inMesh("m1")).toEqual([a1, a2, b]);
    expect(r.ofMember("m1", "a")).toEqual([a1, a2]);
    expect(r.ofMember("m2", "a")).toEqual([]);
    expect([...r.all()]).toEqual([a1, a2, b, c]);

    expect(r.remove(a1)).toBe(true);
    expect(r.remove(a1)).toBe(false);
    expect(r.ofMember("m1", "a")).toEqual([a2]);
    expect(r.remove(a2)).toBe(true);
    expect(r.ofMember("m1", "a")).toEqual([]);
    expect(r.remove(b)).toBe(true);
    expect(r.inMesh("m1")).toEqual([]);
    expect(r.countInMesh("m1")).toBe(0);
    expect(r.size).toBe(1);
  });

  it("never changes a list it handed out: a reader may close connections while it walks one", () => {
    const r = new ConnectionRegistry();
    const conns = Array.from({ length: 5 }, () => conn("m", "a"));
    for (const x of conns) r.add(x);
    const mesh = r.inMesh("m");
    const member = r.ofMember("m", "a");
    const seen: PeerConnection[] = [];
    for (const x of mesh) {
      seen.push(x);
      r.remove(x);
      r.add(conn("m", "a"));
    }
    expect(seen).toEqual(conns);
    expect(member).toEqual(conns);
    expect(r.countInMesh("m")).toBe(5);
    expect(r.ofMember("m", "a").some((x) => conns.includes(x))).toBe(false);
  });
});
