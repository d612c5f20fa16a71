import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  findSession,
  readSession,
  removeSession,
  sessionKeyOf,
  writeSession,
  type SessionRecord,
} from "./session-store";

const home = mkdtempSync(path.join(os.tmpdir(), "mesh-sessions-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const meshId = randomUUID();

const record = (over: Partial<SessionRecord>): SessionRecord => ({
  version: 1,
  sessionKey: randomUUID(),
  meshId,
  meshSlug: "team",
  memberId: randomUUID(),
  displayName: "api·12345678",
  role: "member",
  parentMemberId: randomUUID(),
  parentDisplayName: "laptop",
  brokerUrl: "ws://127.0.0.1:1",
  signSeed: "a".repeat(43),
  boxSecretKey: "b".repeat(43),
  project: "/w/api",
  assistantPid: 4242,
  serverPid: process.pid,
  createdAt: new Date().toISOString(),
  ...over,
});

describe("session records", () => {
  it("are stored 0600 in 0700 folders and read back by the assistant's session id", () => {
    const r = record({});
    const file = writeSession(home, r);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readSession(home, meshId, r.sessionKey)).toEqual(r);
    expect(findSession(home, meshId, { sessionId: r.sessionKey })).toEqual(r);
    removeSession(home, meshId, r.sessionKey);
    expect(readSession(home, meshId, r.sessionKey)).toBeUndefined();
  });

  it("are found by the assistant's process after /clear gave the hooks a new session id, only while the server runs", () => {
    const running = record({ assistantPid: 777, createdAt: "2026-12-02T10:00:00.000Z" });
    const older = record({ assistantPid: 777, createdAt: "2026-12-02T09:00:00.000Z" });
    const gone = record({ assistantPid: 888, serverPid: 2 ** 31 - 2 });
    for (const r of [running, older, gone]) writeSession(home, r);
    expect(findSession(home, meshId, { sessionId: randomUUID(), assistantPid: 777 })?.memberId).toBe(running.memberId);
    expect(findSession(home, meshId, { sessionId: randomUUID(), assistantPid: 888 })).toBeUndefined();
    expect(findSession(home, meshId, { sessionId: randomUUID() })).toBeUndefined();
  });

  it("take only file-safe session keys", () => {
    expect(sessionKeyOf("3f9c2a1b-0000-4000-8000-000000000000")).not.toBeNull();
    for (const bad of ["../etc/passwd", "", "a/b", "x".repeat(129), null, undefined])
      expect(sessionKeyOf(bad)).toBeNull();
    expect(readSession(home, meshId, "../../x")).toBeUndefined();
  });
});
