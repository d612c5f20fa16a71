import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, reviewsOf } from "@/test/pipeline-fixtures";
import { appRouter, createCaller } from "./root";
import { createContext, type SessionUser } from "./trpc";

// Every procedure of the app router × every kind of caller. The list of procedures is read from the
// router itself: a new procedure without a row here fails the first test.
const db = testDb();
afterAll(() => db.$disconnect());

const ROLES = ["owner", "member", "revoked", "stranger", "admin", "signedOut"] as const;
type Role = (typeof ROLES)[number];
type Outcome = "OK" | "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT";
interface Fixture {
  meshId: string;
  inviteId: string;
  inviteToken: string;
  /** The code of the invite's short link. */
  inviteCode: string;
  /** A command-line peer of the mesh, and a banned peer key. */
  peerId: string;
  bannedKey: string;
  /** A person banned from the mesh. */
  bannedUserId: string;
}
interface Row {
  input: (f: Fixture) => unknown;
  /** Changes state: run each caller on a fresh mesh. */
  mutates?: boolean;
  expect: Record<Role, Outcome>;
}

const anyUser: Record<Role, Outcome> = {
  owner: "OK",
  member: "OK",
  revoked: "OK",
  stranger: "OK",
  admin: "OK",
  signedOut: "UNAUTHORIZED",
};
const visible: Record<Role, Outcome> = {
  owner: "OK",
  member: "OK",
  revoked: "NOT_FOUND",
  stranger: "NOT_FOUND",
  admin: "NOT_FOUND",
  signedOut: "UNAUTHORIZED",
};
const ownerOnly: Record<Role, Outcome> = { ...visible, member: "FORBIDDEN" };
const adminOnly: Record<Role, Outcome> = {
  owner: "FORBIDDEN",
  member: "FORBIDDEN",
  revoked: "FORBIDDEN",
  stranger: "FORBIDDEN",
  admin: "OK",
  signedOut: "UNAUTHORIZED",
};
const everyone: Record<Role, Outcome> = {
  owner: "OK",
  member: "OK",
  revoked: "OK",
  stranger: "OK",
  admin: "OK",
  signedOut: "OK",
};
const nobody: Record<Role, Outcome> = {
  owner: "UNAUTHORIZED",
  member: "UNAUTHORIZED",
  revoked: "UNAUTHORIZED",
  stranger: "UNAUTHORIZED",
  admin: "UNAUTHORIZED",
  signedOut: "UNAUTHORIZED",
};
const noSuchCode: Record<Role, Outcome> = {
  owner: "NOT_FOUND",
  member: "NOT_FOUND",
  revoked: "NOT_FOUND",
  stranger: "NOT_FOUND",
  admin: "NOT_FOUND",
  signedOut: "UNAUTHORIZED",
};

const adminAbsent: Record<Role, Outcome> = { ...adminOnly, admin: "NOT_FOUND" };
const absent = "00000000-0000-7000-8000-000000000000";
let engineVersion = "";
const engineJob = () => ({ requester_client_id: "matrix", platform_id: "p-1", scraper_version: engineVersion });
const NO_EXECUTION = "0195d0a8-0000-7000-8000-00000000abcd";
const MATRIX_PLACE = uid("matrix-place");

const none = () => undefined;
const meshInput = (f: Fixture) => ({ meshId: f.meshId });
const MATRIX: Record<string, Row> = {
  "my.profile": { input: none, expect: anyUser },
  "my.updateProfile": { input: () => ({ name: "Renamed" }), expect: anyUser },
  "my.meshes": { input: () => ({}), expect: anyUser },
  // Account settings: every signed-in user, on their own account only. A wrong current password or
  // e-mail confirmation is refused before anything changes; administrators cannot delete theirs.
  "my.account": { input: none, expect: anyUser },
  "my.changePassword": {
    input: () => ({
      currentPassword: "not-the-password",
      newPassword: "a-new-long-password",
      confirmPassword: "a-new-long-password",
    }),
    expect: {
      ...noSuchCode,
      owner: "BAD_REQUEST",
      member: "BAD_REQUEST",
      revoked: "BAD_REQUEST",
      stranger: "BAD_REQUEST",
      admin: "BAD_REQUEST",
    },
  },
  "my.sessions": { input: none, expect: anyUser },
  "my.revokeSession": { input: () => ({ sessionId: "no-such-session" }), expect: noSuchCode },
  "my.revokeOtherSessions": { input: none, expect: anyUser },
  "my.deleteAccount": {
    input: () => ({ confirmEmail: "someone-else@example.test" }),
    expect: {
      ...noSuchCode,
      owner: "BAD_REQUEST",
      member: "BAD_REQUEST",
      revoked: "BAD_REQUEST",
      stranger: "BAD_REQUEST",
      admin: "CONFLICT",
    },
  },
  // Mail (issue 41): each on the caller's own account; an invite is mailed only by who may issue it.
  "my.emailStatus": { input: none, expect: anyUser },
  "my.resendVerification": { input: () => ({ locale: "en" }), expect: anyUser },
  "my.requestEmailChange": { input: () => ({ newEmail: `${uid("new")}@example.test`, locale: "en" }), expect: anyUser },
  "my.sendInviteByEmail": {
    input: (f) => ({ inviteId: f.inviteId, email: "friend@example.test", locale: "en" }),
    expect: { ...visible, member: "NOT_FOUND" },
  },
  "my.joinMesh": { input: (f) => ({ token: f.inviteToken }), mutates: true, expect: anyUser },
  // A code nobody started: every signed-in user gets NOT_FOUND (and the per-user guessing limit counts it).
  "my.deviceLogin": { input: () => ({ userCode: "BBBB-BBBB" }), expect: noSuchCode },
  "my.decideDeviceLogin": {
    input: () => ({ userCode: "BBBB-BBBB", approve: true }),
    mutates: true,
    expect: noSuchCode,
  },
  "my.createMesh": { input: () => ({ name: "New", slug: uid("mx").toLowerCase() }), expect: anyUser },
  "my.mesh": { input: meshInput, expect: visible },
  "my.createInvite": { input: meshInput, expect: ownerOnly },
  // Everyone signed in gets an answer; the query decides which invites (the owner's all, others' none here).
  "my.meshInvites": { input: meshInput, expect: anyUser },
  "my.revokeInvite": {
    input: (f) => ({ inviteId: f.inviteId }),
    mutates: true,
    expect: { ...visible, member: "NOT_FOUND" },
  },
  "my.archiveMesh": { input: meshInput, mutates: true, expect: ownerOnly },
  "my.leaveMesh": { input: meshInput, mutates: true, expect: { ...visible, owner: "CONFLICT" } },
  "my.removeMember": {
    input: (f) => ({ meshId: f.meshId, memberId: f.peerId, ban: true }),
    mutates: true,
    expect: ownerOnly,
  },
  "my.changeMemberRole": {
    input: (f) => ({ meshId: f.meshId, memberId: f.peerId, role: "observer" }),
    mutates: true,
    expect: ownerOnly,
  },
  "my.setMemberGroups": {
    input: (f) => ({ meshId: f.meshId, memberId: f.peerId, groups: ["backend"] }),
    mutates: true,
    expect: ownerOnly,
  },
  "my.meshBans": { input: meshInput, expect: ownerOnly },
  "my.unbanPeer": { input: (f) => ({ meshId: f.meshId, peerPubkey: f.bannedKey }), mutates: true, expect: ownerOnly },
  "my.unbanUser": { input: (f) => ({ meshId: f.meshId, userId: f.bannedUserId }), mutates: true, expect: ownerOnly },
  // The review bot (issue 46): the fixture's mesh has one, so adding another is a CONFLICT for the owner.
  "my.reviewBot": { input: meshInput, expect: visible },
  "my.addReviewBot": { input: meshInput, mutates: true, expect: { ...ownerOnly, owner: "CONFLICT" } },
  "my.removeReviewBot": { input: meshInput, mutates: true, expect: ownerOnly },
  "my.invites": { input: none, expect: anyUser },
  "my.stream": { input: meshInput, expect: visible },
  // The chat (issue 45): its context for a live member only; a device registration without a valid proof
  // by the new key is nobody's (who may register with one: broker/browser-devices.integration.test.ts);
  // key backups of a member that is not the caller's own browser device are not found.
  "my.chatContext": { input: meshInput, expect: visible },
  "my.registerBrowserDevice": {
    input: (f) => ({
      meshId: f.meshId,
      peerPubkey: "A".repeat(43),
      boxPubkey: "B".repeat(43),
      proof: "v1.1.not-a-signature",
    }),
    mutates: true,
    expect: nobody,
  },
  "my.putKeyBackup": {
    input: (f) => ({ meshId: f.meshId, memberId: f.peerId, sealed: "c2VhbGVk" }),
    mutates: true,
    expect: noSuchCode,
  },
  "my.keyBackup": { input: (f) => ({ meshId: f.meshId, memberId: f.peerId }), expect: noSuchCode },
  "my.export": { input: none, expect: anyUser },
  "admin.meshes": { input: () => ({}), expect: adminOnly },
  "admin.mesh": { input: meshInput, expect: adminOnly },
  "admin.sessions": { input: () => ({}), expect: adminOnly },
  "admin.invites": { input: () => ({}), expect: adminOnly },
  "admin.audit": { input: () => ({}), expect: adminOnly },
  "admin.summary": { input: none, expect: adminOnly },
  "public.stats": { input: none, expect: everyone },
  "public.deviceLoginStart": { input: () => ({ clientName: "matrix" }), mutates: true, expect: everyone },
  "public.deviceLoginPoll": { input: () => ({ deviceCode: "no-such-code" }), expect: everyone },
  "public.deviceWhoami": { input: () => ({ token: "mdt_no-such-token" }), expect: nobody },
  "public.deviceLogout": { input: () => ({ token: "mdt_no-such-token" }), expect: everyone },
  // Review engine (Document 1): API keys in REST (scrape-rest.integration.test.ts); in the pages, administrators.
  "scrape.create": { input: () => engineJob(), expect: adminOnly },
  "scrape.createPlatformReviews": { input: () => engineJob(), expect: adminOnly },
  "scrape.createBatch": { input: () => ({ requester_client_id: "matrix", jobs: [engineJob()] }), expect: adminOnly },
  "scrape.batches": { input: () => ({}), expect: adminOnly },
  "scrape.batch": { input: () => ({ batch_id: absent }), expect: adminAbsent },
  "scrape.cancelBatch": { input: () => ({ batch_id: absent }), expect: adminAbsent },
  "scrape.jobs": { input: () => ({}), expect: adminOnly },
  "scrape.job": { input: () => ({ job_id: absent }), expect: adminAbsent },
  "scrape.cancelJob": { input: () => ({ job_id: absent }), expect: adminAbsent },
  "scrape.retryJob": { input: () => ({ job_id: absent }), expect: adminAbsent },
  "scrape.places": { input: () => ({}), expect: adminOnly },
  "scrape.place": { input: () => ({ place_id: absent }), expect: adminAbsent },
  "scrape.searchPlaces": { input: () => ({ q: "no such place" }), expect: adminOnly },
  "scrape.placeReviews": { input: () => ({ place_id: absent }), expect: adminAbsent },
  "scrape.jobReviews": { input: () => ({ job_id: absent }), expect: adminAbsent },
  "scrape.batchReviews": { input: () => ({ batch_id: absent }), expect: adminAbsent },
  "scrape.overview": { input: () => ({}), expect: adminOnly },
  "scrape.byClient": { input: () => ({}), expect: adminOnly },
  "scrape.problems": { input: () => ({}), expect: adminOnly },
  "scrape.byVersion": { input: () => ({}), expect: adminOnly },
  "scrape.registry.list": { input: () => ({}), expect: adminOnly },
  "scrape.registry.get": { input: () => ({ id: absent }), expect: adminAbsent },
  "scrape.registry.create": {
    input: () => ({ platform: uid("mx"), version: "v1", implementation: "noop" }),
    expect: adminOnly,
  },
  "scrape.registry.update": { input: () => ({ id: absent, description: "x" }), expect: adminAbsent },
  "scrape.registry.traffic": { input: () => ({ id: absent, traffic_percent: 0 }), expect: adminAbsent },
  "scrape.registry.promote": { input: () => ({ id: absent }), expect: adminAbsent },
  "scrape.registry.deprecate": { input: () => ({ id: absent }), expect: adminAbsent },
  "scrape.keys.list": { input: () => ({}), expect: adminOnly },
  "scrape.keys.create": { input: () => ({ name: "matrix", scopes: ["jobs:read"] }), expect: adminOnly },
  "scrape.keys.revoke": { input: () => ({ id: absent }), expect: adminAbsent },
  // Its first slot far away: no worker of this run takes it.
  "scrape.schedules.create": {
    input: () => ({
      requester_client_id: "matrix",
      targets: [{ platform_id: "p-1", scraper_version: engineVersion }],
      interval_seconds: 3_600,
      start_at: "2100-01-01T00:00:00Z",
    }),
    expect: adminOnly,
  },
  "scrape.schedules.list": { input: () => ({}), expect: adminOnly },
  "scrape.schedules.get": { input: () => ({ schedule_id: absent }), expect: adminAbsent },
  "scrape.schedules.pause": { input: () => ({ schedule_id: absent }), expect: adminAbsent },
  "scrape.schedules.resume": { input: () => ({ schedule_id: absent }), expect: adminAbsent },
  "scrape.schedules.delete": { input: () => ({ schedule_id: absent }), expect: adminAbsent },
  "scrape.schedules.reviewHistory": { input: () => ({ review_id: absent }), expect: adminAbsent },
  "scrape.schedules.setAnalysis": {
    input: () => ({ schedule_id: absent, analyse_after_run: true }),
    expect: adminAbsent,
  },
  "scrape.alerts.create": {
    input: () => ({ place_id: absent, kind: "health_safety", email: "alerts@example.test" }),
    expect: adminAbsent,
  },
  "scrape.alerts.list": { input: () => ({ place_id: absent }), expect: adminAbsent },
  "scrape.alerts.meshes": { input: () => ({}), expect: adminOnly },
  "scrape.alerts.setEnabled": { input: () => ({ rule_id: absent, enabled: false }), expect: adminAbsent },
  "scrape.alerts.delete": { input: () => ({ rule_id: absent }), expect: adminAbsent },
  "public.invitePreview": { input: () => ({ token: "x" }), expect: everyone },
  "public.resolveInviteCode": { input: (f) => ({ code: f.inviteCode }), expect: everyone },
  // Pipelines: signed-in administrators (and API keys, pipelines-rest.integration.test.ts); ids that do
  // not exist answer NOT_FOUND to administrators. "matrix-place" has reviews of an administrator's job.
  "pipelines.list": { input: none, expect: adminOnly },
  "pipelines.get": { input: () => ({ pipeline_id: "review-analytics" }), expect: adminOnly },
  "pipelines.execute": {
    input: () => ({ pipeline_id: "review-analytics", input: { place_key: MATRIX_PLACE } }),
    expect: adminOnly,
  },
  "pipelines.dashboard": { input: () => ({ pipeline_id: "review-analytics" }), expect: adminOnly },
  "pipelines.widget": {
    input: () => ({ pipeline_id: "review-analytics", widget_id: "total_reviews", execution_id: NO_EXECUTION }),
    expect: adminAbsent,
  },
  "pipelines.executions": { input: () => ({ pipeline_id: "review-analytics" }), expect: adminOnly },
  "pipelines.execution": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION }),
    expect: adminAbsent,
  },
  "pipelines.rerun": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION }),
    expect: adminAbsent,
  },
  "pipelines.synthesis": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION }),
    expect: adminAbsent,
  },
  "pipelines.evidence": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION, ref: "reviews" }),
    expect: adminAbsent,
  },
  "pipelines.selection": { input: () => ({ pipeline_id: "review-analytics" }), expect: adminOnly },
  "pipelines.replies": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION }),
    expect: adminAbsent,
  },
  "pipelines.editReply": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION, draft_id: absent, text: "Thanks" }),
    expect: adminAbsent,
  },
  "pipelines.approveReply": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION, draft_id: absent }),
    expect: adminAbsent,
  },
  "pipelines.discardReply": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION, draft_id: absent }),
    expect: adminAbsent,
  },
  "pipelines.reopenReply": {
    input: () => ({ pipeline_id: "review-analytics", execution_id: NO_EXECUTION, draft_id: absent }),
    expect: adminAbsent,
  },
  // The home page's overview: anyone's own meshes; the engine's newest jobs and runs for administrators.
  "my.homeMeshes": { input: () => ({}), expect: anyUser },
  "admin.homeEngine": { input: none, expect: adminOnly },
};

const users = {} as Record<Exclude<Role, "signedOut">, SessionUser>;
let shared: Fixture;

async function fixture(): Promise<Fixture> {
  const mesh = await makeMesh(db, users.owner);
  await addMember(db, mesh.id, users.member);
  await addMember(db, mesh.id, users.revoked, { revoked: true });
  const owner = createCaller(createContext({ user: users.owner, db }));
  const invite = await owner.my.createInvite({ meshId: mesh.id });
  await owner.my.addReviewBot({ meshId: mesh.id });
  const peer = await db.member.create({ data: { meshId: mesh.id, displayName: "peer", peerPubkey: uid("pk") } });
  const bannedKey = uid("banned");
  await db.meshBan.create({ data: { meshId: mesh.id, peerPubkey: bannedKey } });
  const bannedUserId = uid("banned-user");
  await db.meshBan.create({ data: { meshId: mesh.id, userId: bannedUserId } });
  return {
    meshId: mesh.id,
    inviteId: invite.inviteId,
    inviteToken: invite.token,
    inviteCode: new URL(invite.shortUrl).pathname.split("/").pop() ?? "",
    peerId: peer.id,
    bannedKey,
    bannedUserId,
  };
}

beforeAll(async () => {
  users.owner = await makeUser(db, { name: "Owner" });
  users.member = await makeUser(db, { name: "Member" });
  users.revoked = await makeUser(db, { name: "Revoked" });
  users.stranger = await makeUser(db, { name: "Stranger" });
  users.admin = await makeUser(db, { name: "Admin", admin: true });
  shared = await fixture();
  await collectedJob(db, { apiKeyId: null, placeKey: MATRIX_PLACE, reviews: reviewsOf(MATRIX_PLACE, 3) });
  engineVersion = uid("matrix-v");
  await db.scraperVersion.create({ data: { platform: "platform", version: engineVersion, implementation: "noop" } });
});

function procedurePaths(): string[] {
  return Object.keys(appRouter._def.procedures).sort();
}

async function call(role: Role, path: string, input: unknown): Promise<Outcome | string> {
  const caller = createCaller(createContext({ user: role === "signedOut" ? null : users[role], db }));
  // Walks nested routers too (scrape.registry.list).
  const fn = path
    .split(".")
    .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], caller) as
    ((i: unknown) => Promise<unknown>) | undefined;
  if (typeof fn !== "function") return "missing";
  try {
    await fn(input);
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : `unexpected: ${String(error)}`;
  }
}

describe("authorization matrix", () => {
  it("has a row for every procedure of the router", () => {
    expect(Object.keys(MATRIX).sort()).toEqual(procedurePaths());
  });

  for (const path of Object.keys(MATRIX)) {
    it(`${path}`, async () => {
      const row = MATRIX[path] as Row;
      const results: Partial<Record<Role, string>> = {};
      for (const role of ROLES) {
        const f = row.mutates ? await fixture() : shared;
        results[role] = await call(role, path, row.input(f));
      }
      expect(results).toEqual(row.expect);
    });
  }
});
