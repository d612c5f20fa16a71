import { describe, expect, it } from "vitest";
import type { PeerConnection } from "../ws/registry";
import { SendOrder, type SendBlock, type SendTicket } from "./send-order";

const conn = () => ({}) as PeerConnection;
const ticket = (t: SendTicket | SendBlock): SendTicket => {
  if (!("sends" in t)) throw new Error(`blocked by ${t.id}`);
  return t;
};

describe("the order of a connection's sends", () => {
  it("lets sends through the gate in their arrival order, skipping those that gave up", async () => {
    const order = new SendOrder();
    const c = conn();
    const [a, b, d] = ["a", "b", "d"].map((id) => ticket(order.arrive(c, id)));
    const through: string[] = [];
    expect(order.gate(a!)).toBeUndefined();
    const waitB = order.gate(b!)!.then(() => through.push("b"));
    const waitD = order.gate(d!)!.then(() => through.push("d"));
    order.pass(d!); // d gives up before its turn: skipped when it comes
    order.pass(a!);
    await waitB;
    order.pass(b!);
    await Promise.race([waitD, new Promise((r) => setTimeout(r, 20))]);
    expect(through).toEqual(["b"]);
    // A later send: its turn comes at once (d passed).
    const e = ticket(order.arrive(c, "e"));
    expect(order.gate(e)).toBeUndefined();
  });

  it("after a retryable refusal refuses every later send until the refused one comes again alone", () => {
    const order = new SendOrder();
    const c = conn();
    const [a, b, d] = ["a", "b", "d"].map((id) => ticket(order.arrive(c, id)));
    order.refused(b!, "b", "SERVICE_UNAVAILABLE");
    expect(order.heldBy(a!)).toBeUndefined();
    expect(order.heldBy(d!)).toMatchObject({ id: "b" });
    // An earlier one refused later becomes the block: it is the one to send first.
    order.refused(a!, "a", "SERVICE_UNAVAILABLE");
    expect(order.arrive(c, "x")).toEqual({ id: "a", seq: 1, code: "SERVICE_UNAVAILABLE" });
    // Its resend is refused too while others of the connection are still in progress ...
    expect(order.arrive(c, "a")).toMatchObject({ id: "a" });
    for (const t of [a, b, d]) order.done(t!);
    // ... and lifts the block once nothing is.
    const again = ticket(order.arrive(c, "a"));
    expect(order.heldBy(again)).toBeUndefined();
    expect(order.blockOf(c)).toBeUndefined();
    // A frame limit's refusal blocks too; the other connections are not concerned.
    order.refusedAtArrival(c, "z", "TOO_MANY_REQUESTS");
    expect(order.arrive(c, "y")).toMatchObject({ id: "z", code: "TOO_MANY_REQUESTS" });
    expect("sends" in order.arrive(conn(), "y")).toBe(true);
  });
});
