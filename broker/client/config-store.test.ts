import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import nacl from "tweetnacl";
import { afterEach, describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/server/core/encoding";
import { ConfigError, ConfigStore, defaultMeshHome, meshKeysOf, type TMeshConfig } from "./config-store";
import { deriveMeshKey, generatePeerSecrets } from "./mesh-crypto";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mesh-home-"));
  dirs.push(dir);
  return path.join(dir, "cfg");
}
const mode = (p: string) => statSync(p).mode & 0o777;

function config(slug = "team"): TMeshConfig {
  const secrets = generatePeerSecrets();
  return {
    version: 1,
    meshId: randomUUID(),
    meshSlug: slug,
    memberId: randomUUID(),
    role: "member",
    displayName: "Laptop",
    brokerUrl: "wss://broker.example.test",
    joinedAt: new Date().toISOString(),
    meshRootKey: toBase64Url(nacl.randomBytes(32)),
    signSeed: toBase64Url(secrets.signSeed),
    boxSecretKey: toBase64Url(secrets.boxSecretKey),
  };
}

describe("config store", () => {
  it("writes each mesh to its own file with mode 0600 in directories with mode 0700", () => {
    const store = new ConfigStore(home());
    const c = config();
    const file = store.save(c);
    expect(file).toBe(path.join(store.home, "meshes", `${c.meshId}.json`));
    expect(mode(store.home)).toBe(0o700);
    expect(mode(store.dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(store.get(c.meshId)).toEqual(c);
    // Atomic replace: a second save leaves one file and no temporary file behind, still 0600.
    const renamed = { ...c, displayName: "Desk" };
    store.save(renamed);
    expect(readdirSync(store.dir)).toEqual([`${c.meshId}.json`]);
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(renamed);
  });

  it("tightens a config directory that others could read", () => {
    const dir = home();
    mkdirSync(path.join(dir, "meshes"), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, "meshes"), 0o777);
    new ConfigStore(dir).save(config());
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "meshes"))).toBe(0o700);
  });

  it("refuses to write an invalid config (nothing on disk)", () => {
    const store = new ConfigStore(home());
    expect(() => store.save({ ...config(), signSeed: "short" })).toThrow();
    expect(store.list()).toEqual({ meshes: [], broken: [] });
  });

  it("lists meshes by slug, reports broken files, and selects by slug, id or as the only one", () => {
    const store = new ConfigStore(home());
    expect(() => store.select()).toThrow(ConfigError);
    const b = config("beta");
    store.save(b);
    expect(store.select()).toEqual(b);
    const a = config("alpha");
    store.save(a);
    writeFileSync(path.join(store.dir, `${randomUUID()}.json`), "{ not json");
    const listed = store.list();
    expect(listed.meshes.map((m) => m.meshSlug)).toEqual(["alpha", "beta"]);
    expect(listed.broken).toHaveLength(1);
    expect(() => store.select()).toThrow(/several meshes joined \(alpha, beta\)/);
    expect(store.select("beta")).toEqual(b);
    expect(store.select(a.meshId)).toEqual(a);
    expect(() => store.select("gamma")).toThrow(/no joined mesh called gamma/);
    expect(store.get("../../etc/passwd")).toBeUndefined();
  });

  it("resolves the directory from MESH_HOME, then XDG_CONFIG_HOME, then ~/.config/mesh", () => {
    expect(defaultMeshHome({ MESH_HOME: "/tmp/a" })).toBe("/tmp/a");
    expect(defaultMeshHome({ XDG_CONFIG_HOME: "/tmp/xdg" })).toBe("/tmp/xdg/mesh");
    expect(defaultMeshHome({})).toBe(path.join(os.homedir(), ".config", "mesh"));
  });

  it("derives the public keys and the mesh key from the stored secrets", () => {
    const c = config();
    const keys = meshKeysOf(c);
    expect(keys.signPublicKey).toBe(toBase64Url(nacl.sign.keyPair.fromSeed(keys.secrets.signSeed).publicKey));
    expect(keys.boxPublicKey).toBe(toBase64Url(nacl.box.keyPair.fromSecretKey(keys.secrets.boxSecretKey).publicKey));
    expect(keys.meshKey).toEqual(deriveMeshKey(Buffer.from(c.meshRootKey, "base64url")));
  });

  it("keeps a mesh's verification marks in a 0600 file of their own, refuses a damaged one, and forgets them with the mesh", () => {
    const store = new ConfigStore(home());
    const c = config();
    store.save(c);
    const marks = store.verificationStore(c.meshId);
    expect(marks.load()).toEqual([]);
    const mark = { memberId: randomUUID(), keyFingerprint: "A".repeat(22), markedAt: "2026-12-02T14:00:00.000Z" };
    marks.save([mark]);
    const file = path.join(store.dir, `${c.meshId}.verified`);
    expect(mode(file)).toBe(0o600);
    expect(marks.load()).toEqual([mark]);
    // Not a mesh config: listing the meshes neither shows nor reports it.
    expect(store.list()).toEqual({ meshes: [c], broken: [] });
    expect(() => marks.save([{ ...mark, keyFingerprint: "short" }])).toThrow();
    // A damaged file must not read as "nobody verified", which would hide a changed key.
    writeFileSync(file, "{not json");
    expect(() => marks.load()).toThrow(ConfigError);
    marks.save([mark]);
    store.remove(c.meshId);
    expect(readdirSync(store.dir)).toEqual([]);
  });
});
