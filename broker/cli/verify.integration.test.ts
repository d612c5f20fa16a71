// `mesh verify` and the verified mark in `mesh peers`, end to end: real `mesh` processes with their own
// config directories, a real broker, real PostgreSQL.
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import { formatSafetyNumber, safetyNumber } from "../protocol/safety-number";
import { meshForBroker } from "../client/test-mesh";
import { startBroker, type TestBroker } from "../test-support";
import { MeshProcesses } from "./test-cli";

const db = testDb();
let broker: TestBroker;
const procs = new MeshProcesses();
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  procs.cleanup();
  await broker.close();
  await db.$disconnect();
});

interface Verified {
  memberId: string;
  displayName: string;
  safetyNumber: string;
  verification: string;
  markedAt: string | null;
}
const json = <T>(text: string) => JSON.parse(text) as T;

describe("mesh verify", () => {
  it("prints the same safety number on both sides, marks a peer verified, and warns when its key changes", async () => {
    const { mesh, invite } = await meshForBroker(db, broker.ws);
    const [ana, bo] = [procs.home(), procs.home()];
    expect((await procs.done(ana, ["join", invite.joinUrl, "--name", "Ana"])).code).toBe(0);
    expect((await procs.done(bo, ["join", invite.joinUrl, "--name", "Bo"])).code).toBe(0);

    // Each side, from its own keys and the broker's copy of the other's.
    const [atAna, atBo] = await Promise.all([
      procs.done(ana, ["verify", "bo", "--json"]),
      procs.done(bo, ["verify", "Ana", "--json"]),
    ]);
    expect([atAna.code, atBo.code], atAna.err + atBo.err).toEqual([0, 0]);
    const [fromAna, fromBo] = [json<Verified>(atAna.out), json<Verified>(atBo.out)];
    expect(fromAna.safetyNumber).toMatch(/^\d{60}$/);
    expect(fromBo.safetyNumber).toBe(fromAna.safetyNumber);
    expect([fromAna.verification, fromBo.verification]).toEqual(["unverified", "unverified"]);
    // The digits are those of the two members' keys as stored at their joins.
    const rows = await db.member.findMany({
      where: { meshId: mesh.id, peerPubkey: { not: null } },
      select: { id: true, displayName: true, peerPubkey: true, boxPubkey: true },
    });
    const keys = (name: string) => {
      const row = rows.find((r) => r.displayName === name);
      return { peerPubkey: row?.peerPubkey ?? "", boxPubkey: row?.boxPubkey ?? null };
    };
    expect(fromAna.safetyNumber).toBe(safetyNumber(keys("Ana"), keys("Bo")));
    const boId = rows.find((r) => r.displayName === "Bo")?.id ?? "";
    expect(fromAna.memberId).toBe(boId);

    // For people: the digits in groups of five, the same lines on both screens, and what to do next.
    const [textAna, textBo] = await Promise.all([procs.done(ana, ["verify", "Bo"]), procs.done(bo, ["verify", "ana"])]);
    const digitLines = (out: string) => out.split("\n").filter((l) => /^ {2}\d{5}( \d{5}){5}$/.test(l));
    expect(digitLines(textAna.out)).toEqual(
      formatSafetyNumber(fromAna.safetyNumber)
        .split("\n")
        .map((l) => `  ${l}`),
    );
    expect(digitLines(textBo.out)).toEqual(digitLines(textAna.out));
    expect(textAna.out).toContain(`Safety number of Ana (you) and Bo (member ${boId}):`);
    expect(textAna.out).toContain("Not verified.");
    expect(textAna.out).toContain("they run mesh verify Ana and must see the same. If they do: mesh verify Bo --mark");

    // Not yourself, not a group, not a stranger.
    expect((await procs.done(ana, ["verify", "Ana"])).code).toBe(2);
    expect((await procs.done(ana, ["verify", "@backend"])).code).toBe(2);
    const stranger = await procs.done(ana, ["verify", "Zed"]);
    expect(stranger.code).toBe(1);
    expect(stranger.err).toContain("no peer called Zed");

    // Marked: mesh peers says so.
    const marked = await procs.done(ana, ["verify", "Bo", "--mark"]);
    expect(marked.code, marked.err).toBe(0);
    expect(marked.out).toContain("Marked Bo as verified");
    const peers = await procs.done(ana, ["peers"]);
    expect(peers.code, peers.err).toBe(0);
    expect(peers.out).toMatch(/^NAME\s+MEMBER ID\s+ROLE\s+PRESENCE\s+VERIFIED\s+STATUS\s+GROUPS$/m);
    expect(peers.out).toMatch(new RegExp(`^Bo\\s+${boId}\\s+member\\s+\\S+\\s+verified$`, "m"));
    expect(peers.err).not.toContain("WARNING");
    const listed = json<{ memberId: string; verification: string }[]>((await procs.done(ana, ["peers", "--json"])).out);
    expect(listed.map((p) => p.verification).sort()).toEqual(["unverified", "verified"]);
    // Only Ana's judgement: Bo has marked nobody.
    expect((await procs.done(bo, ["peers"])).out).not.toMatch(/\bverified\b/);

    // The broker now hands out another box key for Bo (what a broker that wants to read Bo's direct
    // messages would do): Ana's mark turns into a warning with exit code 3, and the number changes.
    const substitute = toBase64Url(nacl.box.keyPair().publicKey);
    await db.member.update({ where: { id: boId }, data: { boxPubkey: substitute } });
    const warned = await procs.done(ana, ["peers"]);
    expect(warned.code).toBe(3);
    expect(warned.out).toMatch(new RegExp(`^Bo\\s+${boId}\\s+member\\s+\\S+\\s+KEY CHANGED$`, "m"));
    expect(warned.err).toMatch(
      new RegExp(
        `WARNING: the keys of Bo \\(member ${boId}\\) changed since you verified them on \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(warned.err).toContain(`compare the safety number again: mesh verify ${boId}`);
    const warnedJson = await procs.done(ana, ["peers", "--json"]);
    expect(warnedJson.code).toBe(3);
    expect(
      json<{ memberId: string; verification: string }[]>(warnedJson.out).find((p) => p.memberId === boId)?.verification,
    ).toBe("changed");
    const again = await procs.done(ana, ["verify", "Bo", "--json"]);
    expect(again.code).toBe(3);
    expect(again.err).toContain("WARNING: Bo's keys changed since you verified them");
    const changed = json<Verified>(again.out);
    expect(changed.verification).toBe("changed");
    expect(changed.safetyNumber).not.toBe(fromAna.safetyNumber);
    expect(changed.safetyNumber).toBe(safetyNumber(keys("Ana"), { ...keys("Bo"), boxPubkey: substitute }));

    // A direct message to Bo would be sealed to keys nobody compared: refused, nothing sent.
    const refused = await procs.done(ana, ["send", "--to", "Bo", "for Bo only"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("not sent: the keys of Bo changed since you verified them");
    const anaMember = rows.find((r) => r.displayName === "Ana")?.id ?? "";
    expect(await db.messageEnvelope.count({ where: { senderMemberId: anaMember } })).toBe(0);

    // After comparing again, marking again settles it; --unmark forgets it.
    expect((await procs.done(ana, ["verify", "Bo", "--mark"])).code).toBe(0);
    expect((await procs.done(ana, ["send", "--to", "Bo", "for Bo only"])).code).toBe(0);
    expect(await db.messageEnvelope.count({ where: { senderMemberId: anaMember } })).toBe(1);
    expect((await procs.done(ana, ["peers"])).code).toBe(0);
    expect((await procs.done(ana, ["verify", "Bo", "--unmark"])).code).toBe(0);
    const after = await procs.done(ana, ["peers", "--json"]);
    expect(json<{ verification: string }[]>(after.out).map((p) => p.verification)).toEqual([
      "unverified",
      "unverified",
    ]);

    // The broker's copy of Ana's own keys is what Bo's number is made of: a different one is told to Ana.
    const anaId = rows.find((r) => r.displayName === "Ana")?.id ?? "";
    await db.member.update({ where: { id: anaId }, data: { boxPubkey: toBase64Url(nacl.box.keyPair().publicKey) } });
    const own = await procs.done(ana, ["verify", "Bo"]);
    expect(own.code).toBe(0);
    expect(own.err).toContain("WARNING: the broker lists your own member with other keys than this machine holds");
  });
});
