// Issue 41, attack 6: one invite cannot fill a mesh. An invite without a use cap admits a bounded number
// of joins (INVITE_DEFAULT_MAX_USES), and the connections of every member who joined through one invite
// count together against MAX_CONNECTIONS_PER_INVITE, so the holder of one invite cannot take the mesh's
// MAX_CONNECTIONS_PER_MESH slots with many keys of 5 connections each (docs/protocol.md, "Connection limits").
import type WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewInvite } from "@/server/services/invites/preview-invite";
import { testDb } from "@/test/helpers";
import { visitorCtx } from "@/test/mesh-fixtures";
import { as, connect, joinedPeer, meshWithInvite, startBroker, type TestBroker, type TestPeer } from "./test-support";

const db = testDb();
let broker: TestBroker;
const open: WebSocket[] = [];
beforeAll(async () => {
  // The product's connection limits as they ship (100 a mesh, 5 a member); only the per-address limit
  // of connection attempts is lifted, as every attempt here comes from 127.0.0.1.
  broker = await startBroker(db, { WS_AUTH_RATE_PER_MINUTE: "100000" });
});
afterAll(async () => {
  for (const ws of open) ws.terminate();
  await broker.close();
  await db.$disconnect();
});

/** Opens a connection as the peer: "ok", or the close reason that refused it. */
async function attempt(peer: TestPeer): Promise<string> {
  try {
    const result = await connect(broker, peer);
    if (!result.ok) return `http ${result.status}`;
    open.push(result.ws);
    return "ok";
  } catch (error) {
    return String(error).replace(/^.*closed before welcome: /, "");
  }
}

describe("one invite does not fill a mesh", () => {
  it("an invite without a use cap admits 10 joins, then answers invite_exhausted (preview: exhausted)", async () => {
    const { invite } = await meshWithInvite(db);
    for (let i = 0; i < 10; i++) await joinedPeer(db, invite.token, `p${i}`);
    await expect(joinedPeer(db, invite.token, "one too many")).rejects.toThrow("join failed: invite_exhausted");
    const preview = await previewInvite(visitorCtx(db), { token: invite.token });
    expect(preview).toMatchObject({ valid: false, reason: "exhausted" });
  });

  it("20 keys × 5 connections through one invite leave room for the other members (no 1008 capacity)", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db, { maxUses: 20 });
    const sybils: TestPeer[] = [];
    for (let i = 0; i < 20; i++) sybils.push(await joinedPeer(db, invite.token, `sybil${i}`));
    const other = await as(db, owner).my.createInvite({ meshId: mesh.id });
    const honest = await joinedPeer(db, other.token, "honest");

    const outcomes: string[] = [];
    for (const peer of sybils) outcomes.push(...(await Promise.all(Array.from({ length: 5 }, () => attempt(peer)))));
    // An honest member who joined through another invite still gets a slot.
    expect(await attempt(honest)).toBe("ok");
    // The invite's members together hold at most MAX_CONNECTIONS_PER_INVITE (25) connections.
    expect(outcomes.filter((o) => o === "ok").length).toBe(25);
    expect(new Set(outcomes.filter((o) => o !== "ok"))).toEqual(new Set(["1008 invite_capacity"]));
  }, 60_000);
});
