import { afterAll, describe, expect, it } from "vitest";
import { ed25519KeyPairFromSeed } from "@/server/core/crypto/ed25519";
import { parseKeyRing } from "@/server/core/crypto/seal";
import { toBase64Url } from "@/server/core/encoding";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { SYSTEM } from "../actor";
import { sealerOf, serviceContext } from "../context";
import { createMesh } from "../meshes/create-mesh";
import { ZCreateMeshInput } from "../meshes/create-mesh.schema";
import { addReviewBot } from "./add-review-bot";
import { openBotKeys } from "./bot-keys";
import { resealReviewBotKeys } from "./reseal-review-bot-keys";

const db = testDb();
afterAll(() => db.$disconnect());
const key = (n: number) => Buffer.alloc(32, n).toString("base64");

describe("resealReviewBotKeys", () => {
  it("moves a bot's sealed keys to the new first key; the old key can then be dropped", async () => {
    const owner = await makeUser(db);
    const oldRing = `kold${uid().replace(/-/g, "")}:${key(5)}`;
    const ctx = serviceContext(actorOf(owner), { db, sealer: sealerOf(oldRing) });
    const mesh = await createMesh(ctx, ZCreateMeshInput.parse({ name: "Rotating bot", slug: uid("rb").toLowerCase() }));
    const bot = await addReviewBot(ctx, { meshId: mesh.id });
    const ring = parseKeyRing(`knew:${key(6)},${oldRing}`);
    const system = serviceContext(SYSTEM, { db });
    expect(await resealReviewBotKeys(system, { ring, onlyMeshIds: [mesh.id] })).toBe(1);
    const row = await db.reviewBot.findUniqueOrThrow({ where: { id: bot.botId } });
    expect(row.signSecretKeyEnc.startsWith("v1.knew.")).toBe(true);
    expect(row.boxSecretKeyEnc.startsWith("v1.knew.")).toBe(true);
    // With only the new key the keys open, and they are the bot's (its member's public key).
    const keys = openBotKeys(sealerOf(`knew:${key(6)}`), row);
    expect(toBase64Url(ed25519KeyPairFromSeed(keys.signSeed).publicKey)).toBe(bot.peerPubkey);
    expect(() => openBotKeys(sealerOf(oldRing), row)).toThrow();
    expect(await resealReviewBotKeys(system, { ring, onlyMeshIds: [mesh.id] })).toBe(0);
  });
});
