// Issue 18, point 2: `mesh login`'s device flow (approve, deny, expiry, code guessing limited), and a
// command-line join that links its member to the user.
import nacl from "tweetnacl";
import type { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import { restAs } from "@/test/rest";
import { makeMesh, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { joinMesh } from "../join/join-mesh";
import { ZJoinInput } from "../join/join-mesh.schema";
import { signJoinProof } from "../join/join-proof";
import {
  DEVICE_LOGIN_TTL_MS,
  DEVICE_POLL_INTERVAL_S,
  normaliseUserCode,
  pollDeviceLogin,
  startDeviceLogin,
} from "./device-login";

const db = testDb();
afterAll(() => db.$disconnect());
/** A command-line join as the broker's `/join` makes it: the body parsed at the edge, the visitor's context. */
const join = (body: z.input<typeof ZJoinInput>) => joinMesh(visitorCtx(db), ZJoinInput.parse(body));
const as = (user: SessionUser) => createCaller(createContext({ user, db }));
const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

const rest = (user: SessionUser | null, method: string, path: string, body?: unknown) =>
  restAs(db, user, method, path, body);

describe("mesh login (device flow)", () => {
  it("approve: the next poll gets a token once; it names the user, links joins, and stops working at logout", async () => {
    const user = await makeUser(db, { name: "Cleo Cli" });
    const started = await rest(null, "POST", "/public/device/code", { clientName: "cleo-laptop" });
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({
      verificationPath: "/device",
      expiresIn: 600,
      interval: DEVICE_POLL_INTERVAL_S,
    });
    expect(started.json.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    const deviceCode = String(started.json.deviceCode);
    // Only hashes are kept.
    const row = await db.deviceAuthorization.findFirstOrThrow({
      where: { clientName: "cleo-laptop" },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.stringify(row)).not.toContain(deviceCode);
    expect(JSON.stringify(row)).not.toContain(normaliseUserCode(String(started.json.userCode)));

    expect((await rest(null, "POST", "/public/device/token", { deviceCode })).json).toEqual({ status: "pending" });
    // The person types the code in any case and spacing.
    const typed = String(started.json.userCode).toLowerCase().replace("-", " ");
    expect(await as(user).my.deviceLogin({ userCode: typed })).toMatchObject({
      clientName: "cleo-laptop",
      userCode: started.json.userCode,
    });
    // No browser session signed in just now: the password again (issue 41; the recent sign-in case is in
    // account/command-line-sessions.integration.test.ts).
    const decided = await rest(user, "POST", `/my/device/${String(started.json.userCode)}`, {
      approve: true,
      password: "a-long-password",
    });
    expect(decided.json).toMatchObject({ approved: true, clientName: "cleo-laptop" });
    // Approved once: the same code cannot be decided again.
    expect((await rest(user, "POST", `/my/device/${String(started.json.userCode)}`, { approve: false })).status).toBe(
      404,
    );

    const now = new Date();
    const polled = await pollDeviceLogin(visitorCtx(db, later(now, DEVICE_POLL_INTERVAL_S)), { deviceCode });
    expect(polled).toMatchObject({ status: "approved", user: { name: "Cleo Cli", email: user.email } });
    const token = polled.status === "approved" ? polled.token : "";
    expect(token).toMatch(/^mdt_/);
    expect(await pollDeviceLogin(visitorCtx(db, later(now, 2 * DEVICE_POLL_INTERVAL_S)), { deviceCode })).toEqual({
      status: "expired",
    });
    expect(JSON.stringify(await db.deviceToken.findMany({ where: { userId: user.id } }))).not.toContain(token);

    expect((await rest(null, "POST", "/public/device/whoami", { token })).json).toEqual({
      name: "Cleo Cli",
      email: user.email,
      trustedBrokers: [new URL(process.env.PUBLIC_BROKER_URL ?? "").origin],
    });

    // A command-line join with the token: the member is the user's, and the mesh is in their list.
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id });
    const keys = nacl.sign.keyPair();
    const joined = await join({
      token: invite.token,
      peerPubkey: toBase64Url(keys.publicKey),
      displayName: "cleo-laptop",
      accountToken: token,
    });
    expect(joined).toMatchObject({ ok: true });
    expect(
      await db.member.findFirstOrThrow({ where: { meshId: mesh.id, peerPubkey: toBase64Url(keys.publicKey) } }),
    ).toMatchObject({ userId: user.id });
    expect((await as(user).my.meshes({})).items).toEqual([
      expect.objectContaining({ id: mesh.id, myRole: "member", isOwner: false }),
    ]);
    expect((await as(user).my.export()).meshesJoined).toEqual([
      expect.objectContaining({ id: mesh.id, devices: [expect.objectContaining({ displayName: "cleo-laptop" })] }),
    ]);

    expect((await rest(null, "POST", "/public/device/logout", { token })).json).toEqual({ loggedOut: true });
    expect((await rest(null, "POST", "/public/device/whoami", { token })).status).toBe(401);
    const other = nacl.sign.keyPair();
    expect(
      await join({
        token: invite.token,
        peerPubkey: toBase64Url(other.publicKey),
        displayName: "x",
        accountToken: token,
      }),
    ).toEqual({ ok: false, reason: "account_token_invalid" });
  });

  it("deny, expiry and polling too fast", async () => {
    const user = await makeUser(db);
    const t0 = new Date();
    const denied = await startDeviceLogin(visitorCtx(db, t0), { clientName: "denied" });
    await as(user).my.decideDeviceLogin({ userCode: denied.userCode, approve: false });
    expect(await pollDeviceLogin(visitorCtx(db, later(t0, 5)), { deviceCode: denied.deviceCode })).toEqual({
      status: "denied",
    });

    const slow = await startDeviceLogin(visitorCtx(db, t0), { clientName: "slow" });
    expect(await pollDeviceLogin(visitorCtx(db, t0), { deviceCode: slow.deviceCode })).toEqual({ status: "pending" });
    expect(await pollDeviceLogin(visitorCtx(db, later(t0, 1)), { deviceCode: slow.deviceCode })).toEqual({
      status: "slow_down",
    });
    expect(
      await pollDeviceLogin(visitorCtx(db, later(t0, 1 + DEVICE_POLL_INTERVAL_S)), { deviceCode: slow.deviceCode }),
    ).toEqual({
      status: "pending",
    });

    const old = await startDeviceLogin(visitorCtx(db, new Date(Date.now() - DEVICE_LOGIN_TTL_MS - 1000)), {
      clientName: "old",
    });
    expect(await pollDeviceLogin(visitorCtx(db), { deviceCode: old.deviceCode })).toEqual({ status: "expired" });
    await expect(as(user).my.decideDeviceLogin({ userCode: old.userCode, approve: true })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "device_code_not_found",
    });
    expect(await pollDeviceLogin(visitorCtx(db), { deviceCode: "no-such-code" })).toEqual({ status: "expired" });
  });

  it("limits code guessing per user: wrong codes, then 429 even for the right one", async () => {
    const guesser = await makeUser(db);
    const target = await startDeviceLogin(visitorCtx(db), { clientName: "target" });
    const guesses = [
      "BBBB-BBBB",
      "CCCC-CCCC",
      "DDDD-DDDD",
      "FFFF-FFFF",
      "GGGG-GGGG",
      "HHHH-HHHH",
      "JJJJ-JJJJ",
      "KKKK-KKKK",
      "LLLL-LLLL",
      "MMMM-MMMM",
    ];
    for (const userCode of guesses)
      await expect(as(guesser).my.deviceLogin({ userCode })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(as(guesser).my.decideDeviceLogin({ userCode: target.userCode, approve: true })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
    expect(await pollDeviceLogin(visitorCtx(db), { deviceCode: target.deviceCode })).toEqual({ status: "pending" });
    // Another user is not held back by the guesser.
    expect(await as(await makeUser(db)).my.deviceLogin({ userCode: target.userCode })).toMatchObject({
      clientName: "target",
    });
  });

  it("links an existing member to an account only with the peer key's proof", async () => {
    const owner = await makeUser(db);
    const mallory = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id });
    const victim = nacl.sign.keyPair();
    const peerPubkey = toBase64Url(victim.publicKey);
    expect(await join({ token: invite.token, peerPubkey, displayName: "victim" })).toMatchObject({ ok: true });
    const login = await startDeviceLogin(visitorCtx(db), { clientName: "mallory" });
    await as(mallory).my.decideDeviceLogin({ userCode: login.userCode, approve: true, password: "a-long-password" });
    const polled = await pollDeviceLogin(visitorCtx(db, later(new Date(), DEVICE_POLL_INTERVAL_S)), {
      deviceCode: login.deviceCode,
    });
    const token = polled.status === "approved" ? polled.token : "";
    expect(await join({ token: invite.token, peerPubkey, displayName: "victim", accountToken: token })).toEqual({
      ok: false,
      reason: "key_proof_required",
    });
    expect((await db.member.findFirstOrThrow({ where: { meshId: mesh.id, peerPubkey } })).userId).toBeNull();
    // The key's holder can link it.
    const proof = signJoinProof({ token: invite.token, peerPubkey, secretKey: victim.secretKey });
    expect(
      await join({ token: invite.token, peerPubkey, displayName: "victim", accountToken: token, proof }),
    ).toMatchObject({ ok: true, rejoined: true });
    expect((await db.member.findFirstOrThrow({ where: { meshId: mesh.id, peerPubkey } })).userId).toBe(mallory.id);
  });
});
