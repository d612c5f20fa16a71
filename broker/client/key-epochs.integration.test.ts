// Issue 17, point 5: after a removal, whole-mesh messages go under a key of a new epoch that the removed
// peer never gets; with every key it ever held, it cannot read them (docs/protocol.md, "Key epochs").
import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeMember } from "@/server/services/meshes/members";
import { testDb } from "@/test/helpers";
import { actorOf } from "@/test/mesh-fixtures";
import nacl from "tweetnacl";
import { fromBase64Url } from "@/server/core/encoding";
import { eventually, fakeCiphertext, TestClient } from "../test-support";
import { joinWithLink, type MeshClient, type ReceivedMessage, type TMeshConfig } from "./index";
import { openCiphertext } from "./mesh-crypto";
import { clientHarness, meshForBroker } from "./test-mesh";

const db = testDb();
const harness = clientHarness(db);

async function peer(link: string, name: string) {
  const s = harness.store();
  const { config } = await joinWithLink(link, { displayName: name, store: s });
  const client = harness.client(config, { epochKeyStore: s.epochKeyStore(config.meshId) });
  const inbox: ReceivedMessage[] = [];
  client.on("message", (m) => inbox.push(m));
  await client.connect();
  return { config, client, inbox, store: s };
}
/** Every key a peer could hold: the invite's mesh key and all epoch keys it ever received. */
function canRead(config: TMeshConfig, ring: MeshClient, ciphertext: string): boolean {
  const keys = {
    meshKey: ring.keys.meshKey,
    memberId: config.memberId,
    boxSecretKey: ring.keys.secrets.boxSecretKey,
    epochKey: (e: number, id: string) => ring.epochKeys.get(e, id),
  };
  return openCiphertext(ciphertext, keys).ok;
}

describe("key epochs", () => {
  it("a removed peer holding every old key cannot read whole-mesh messages sent after its removal; the others can, and so can a newcomer", async () => {
    const { owner, mesh, invite, deps } = await meshForBroker(db, harness.broker.ws);
    const [alice, bob, mallory] = [
      await peer(invite.inviteLink, "alice"),
      await peer(invite.inviteLink, "bob"),
      await peer(invite.inviteLink, "mallory"),
    ];
    await alice.client.send("before the removal");
    await eventually(async () => bob.inbox.length === 1 && mallory.inbox.length === 1, 10_000);
    expect(mallory.inbox[0]?.text).toBe("before the removal");

    // Mallory, removed, keeps its client object with every key it held; it sees no more traffic.
    await removeMember({ ...deps, actor: actorOf(owner) }, { meshId: mesh.id, memberId: mallory.config.memberId });
    // The others' key_epoch frames and mallory's 4403 close go out separately: wait for both.
    await eventually(
      async () => alice.client.keyEpoch === 1 && bob.client.keyEpoch === 1 && !mallory.client.connected,
      10_000,
    );

    await alice.client.send("after the removal");
    await eventually(async () => bob.inbox.length === 2, 10_000);
    expect(bob.inbox[1]).toMatchObject({ text: "after the removal", to: { kind: "mesh", epoch: 1 }, direct: false });
    // Bob answers under the same epoch (the key alice created, or one of its own: both open).
    await bob.client.send("bob too");
    await eventually(async () => alice.inbox.length === 1, 10_000);
    expect(alice.inbox[0]?.text).toBe("bob too");

    // The ciphertexts the broker stored after the removal, as a dump of its database would give them.
    const after = await db.messageEnvelope.findMany({
      where: { meshId: mesh.id, targetSpec: { equals: { kind: "mesh", epoch: 1 } } },
      select: { ciphertext: true },
    });
    expect(after.length).toBe(2);
    for (const row of after) {
      const ciphertext = Buffer.from(row.ciphertext).toString("base64url");
      expect(canRead(mallory.config, mallory.client, ciphertext)).toBe(false);
      expect(canRead(bob.config, bob.client, ciphertext)).toBe(true);
    }
    expect(mallory.client.epochKeys.size).toBe(0);
    // Each remaining peer keeps its epoch keys in MESH_HOME, 0600.
    const keysFile = path.join(bob.store.dir, `${mesh.id}.keys`);
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);

    // A peer joining after the keys went round asks for them and reads what follows.
    const carol = await peer(invite.inviteLink, "carol");
    expect(carol.client.keyEpoch).toBe(1);
    expect((await alice.client.send("welcome carol")).recipients).toBe(2);
    await eventually(async () => carol.inbox.some((m) => m.text === "welcome carol"), 15_000);
  });

  it("the broker refuses a whole-mesh message under an old epoch; the client seals it again under the new one", async () => {
    const { owner, mesh, invite, deps } = await meshForBroker(db, harness.broker.ws);
    const [a, b, c] = [
      await peer(invite.inviteLink, "a"),
      await peer(invite.inviteLink, "b"),
      await peer(invite.inviteLink, "c"),
    ];
    await removeMember({ ...deps, actor: actorOf(owner) }, { meshId: mesh.id, memberId: c.config.memberId });
    // Sent at once: the client may still be at epoch 0 when it seals; if the broker already knows epoch 1
    // the answer is CONFLICT and the client seals again. (If the broker's notice of the removal had not
    // come yet either, epoch 0 is still the mesh's epoch there, and the message goes to the members
    // left: never to the removed one.) Either way b gets it once, c never.
    const receipt = await a.client.send("right after");
    expect(receipt.recipients).toBe(1);
    await eventually(async () => b.inbox.length === 1, 10_000);
    expect(b.inbox[0]).toMatchObject({ text: "right after", to: { kind: "mesh" } });
    expect(c.inbox.map((m) => m.text)).not.toContain("right after");

    // Once the broker knows epoch 1 (a got its key_epoch frame), a message under epoch 0 is refused
    // with CONFLICT after a key_epoch frame, and the client's own send reseals under epoch 1.
    await eventually(async () => a.client.keyEpoch === 1, 10_000);
    const seed = fromBase64Url(a.config.signSeed, 32);
    const raw = await TestClient.open(harness.broker, {
      meshId: a.config.meshId,
      memberId: a.config.memberId,
      keys: nacl.sign.keyPair.fromSeed(seed),
    });
    raw.raw({ v: 1, type: "send", id: "under-epoch-0", to: { kind: "mesh" }, ciphertext: fakeCiphertext(32) });
    expect(await raw.next((f) => f.type === "error" && f.id === "under-epoch-0")).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("stale_key_epoch"),
    });
    expect(raw.frames.some((f) => f.type === "key_epoch" && f.epoch === 1)).toBe(true);
    await raw.close();
    await a.client.send("later");
    await eventually(async () => b.inbox.length === 2, 10_000);
    expect(b.inbox[1]).toMatchObject({ text: "later", to: { kind: "mesh", epoch: 1 } });
  });
});
