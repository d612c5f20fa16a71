// Issue 16, point 6: invite tokens and links belong to the meshes a user still belongs to.
import { afterAll, describe, expect, it } from "vitest";
import { ZCreateInviteInput } from "./create-invite.schema";
import { testDb } from "@/test/helpers";
import { addMember, ctxOf, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { exportMyData } from "../export/export-my-data";
import { leaveMesh } from "../meshes/leave-mesh";
import { createInvite } from "./create-invite";
import { listMyInvites } from "./list-my-invites";

const db = testDb();
afterAll(() => db.$disconnect());

describe("invites of a mesh the user left", () => {
  it("are no longer listed with their tokens and links, and the export keeps the membership without any token", async () => {
    const owner = await makeUser(db);
    const admin = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, admin, { role: "admin" });
    const invite = await createInvite(ctxOf(db, admin), ZCreateInviteInput.parse({ meshId: mesh.id, role: "member" }));
    const before = await listMyInvites(ctxOf(db, admin));
    expect(before.map((i) => i.id)).toContain(invite.inviteId);

    await leaveMesh(ctxOf(db, admin), { meshId: mesh.id });
    const after = await listMyInvites(ctxOf(db, admin));
    expect(after.map((i) => i.id)).not.toContain(invite.inviteId);
    expect(JSON.stringify(after)).not.toContain(invite.token);

    const exported = await exportMyData(ctxOf(db, admin));
    expect(exported.meshesJoined.map((m) => m.id)).toContain(mesh.id);
    expect(JSON.stringify(exported)).not.toContain(invite.token);
    // The owner still sees what was issued in the mesh they own only when they issued it themselves.
    expect((await listMyInvites(ctxOf(db, owner))).map((i) => i.id)).not.toContain(invite.inviteId);
  });
});
