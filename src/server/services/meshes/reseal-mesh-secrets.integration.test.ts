import { afterAll, describe, expect, it } from "vitest";
import { verifyInviteToken } from "@/server/core/invites";
import { testDb, uid } from "@/test/helpers";
import { makeUser } from "@/test/mesh-fixtures";
import { createInvite } from "../invites/create-invite";
import { createMesh } from "./create-mesh";
import { parseKeyRing } from "@/server/core/crypto/seal";
import { SYSTEM } from "../actor";
import { sealerOf, serviceContext, settingsWith } from "../context";
import { ZCreateMeshInput } from "./create-mesh.schema";
import { ZCreateInviteInput } from "../invites/create-invite.schema";
import { resealMeshSecrets } from "./reseal-mesh-secrets";
import { openInviteCode } from "../invites/invite-code";
import { resealInviteCodes } from "../invites/reseal-invite-codes";

const db = testDb();
afterAll(() => db.$disconnect());
const key = (n: number) => Buffer.alloc(32, n).toString("base64");
const depsFor = (ringValue: string) => ({
  db,
  sealer: sealerOf(ringValue),
  settings: settingsWith(serviceContext(SYSTEM).settings, {
    publicBaseUrl: "https://mesh.example.test",
    brokerUrl: "wss://broker.example.test",
  }),
});

describe("resealMeshSecrets", () => {
  it("moves mesh secrets to the new first key; the old key can then be dropped", async () => {
    const owner = await makeUser(db);
    const actor = { kind: "user" as const, userId: owner.id, isAdmin: false };
    const oldRing = `kold${uid().replace(/-/g, "")}:${key(1)}`;
    const mesh = await createMesh(
      serviceContext(actor, depsFor(oldRing)),
      ZCreateMeshInput.parse({ name: "Rotating", slug: uid("rot").toLowerCase() }),
    );
    const newRingValue = `knew:${key(2)},${oldRing}`;
    // Only this test's mesh: the run's other meshes are sealed under the suite's own key.
    expect(
      await resealMeshSecrets(serviceContext(SYSTEM, { db }), {
        ring: parseKeyRing(newRingValue),
        onlyMeshIds: [mesh.id],
      }),
    ).toBe(1);
    const row = await db.mesh.findUniqueOrThrow({ where: { id: mesh.id } });
    expect(row.ownerSecretKeyEnc.startsWith("v1.knew.")).toBe(true);
    expect(row.rootKeyEnc.startsWith("v1.knew.")).toBe(true);
    // With only the new key, invites can still be signed for the mesh.
    const invite = await createInvite(
      serviceContext(actor, depsFor(`knew:${key(2)}`)),
      ZCreateInviteInput.parse({ meshId: mesh.id }),
    );
    expect(verifyInviteToken(invite.token).ok).toBe(true);
    expect(
      await resealMeshSecrets(serviceContext(SYSTEM, { db }), {
        ring: parseKeyRing(newRingValue),
        onlyMeshIds: [mesh.id],
      }),
    ).toBe(0);
  });

  it("moves invite short codes to the new first key too, so the mesh page can still show them", async () => {
    const owner = await makeUser(db);
    const actor = { kind: "user" as const, userId: owner.id, isAdmin: false };
    const oldRing = `kold${uid().replace(/-/g, "")}:${key(3)}`;
    const mesh = await createMesh(
      serviceContext(actor, depsFor(oldRing)),
      ZCreateMeshInput.parse({ name: "Rotating codes", slug: uid("rotc").toLowerCase() }),
    );
    const invite = await createInvite(
      serviceContext(actor, depsFor(oldRing)),
      ZCreateInviteInput.parse({ meshId: mesh.id }),
    );
    const newRing = parseKeyRing(`knew:${key(4)},${oldRing}`);
    expect(await resealInviteCodes(serviceContext(SYSTEM, { db }), { ring: newRing, onlyMeshIds: [mesh.id] })).toBe(1);
    const row = await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } });
    expect(row.shortCodeEnc?.startsWith("v1.knew.")).toBe(true);
    const code = openInviteCode(depsFor(`knew:${key(4)}`).sealer, invite.inviteId, row.shortCodeEnc);
    expect(invite.shortUrl).toBe(`https://mesh.example.test/join/${code}`);
    expect(await resealInviteCodes(serviceContext(SYSTEM, { db }), { ring: newRing, onlyMeshIds: [mesh.id] })).toBe(0);
  });
});
