// Where a peer keeps its keys and meshes: one JSON file per mesh under the config directory,
// directory mode 0700, files 0600, every write atomic (temporary file, fsync, rename).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { syncDir, writePrivateFile } from "./private-file";
import { z } from "zod";
import { fromBase64Url, isBase64Url, toBase64Url } from "../../src/server/core/encoding";
import { ZEpochKey, type EpochKeyStore } from "./epoch-keys";
import type { VerificationMark } from "../protocol/safety-number";
import { deriveMeshKey, peerKeyPairs, type PeerSecrets } from "./mesh-crypto";

const ZUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const key32 = z.string().refine((v) => isBase64Url(v, 32), { error: "expected 32 bytes of base64url" });

/** One joined mesh as stored on disk (`meshes/<meshId>.json`). */
export const ZMeshConfig = z.object({
  version: z.literal(1),
  meshId: ZUuid,
  meshSlug: z.string().min(1),
  memberId: ZUuid,
  role: z.string(),
  displayName: z.string(),
  brokerUrl: z.string().regex(/^wss?:\/\//),
  joinedAt: z.string(),
  /** Secrets, base64url: the invite's mesh root key, the ed25519 seed and the X25519 secret key. */
  meshRootKey: key32,
  signSeed: key32,
  boxSecretKey: key32,
});
export type TMeshConfig = z.output<typeof ZMeshConfig>;

/** The account of `mesh login` as stored (`account.json`): the web app and the device token. */
export const ZAccount = z.object({
  version: z.literal(1),
  webUrl: z.string().regex(/^https?:\/\/[^\s]+$/),
  token: z.string().startsWith("mdt_").max(200),
  name: z.string().nullable(),
  email: z.string().nullable(),
  loggedInAt: z.string(),
});
export type TAccount = z.output<typeof ZAccount>;

/** A peer marked verified (`mesh verify --mark`): the fingerprint of its keys when marked (broker/protocol/safety-number.ts). */
const ZVerificationMark = z.object({
  memberId: ZUuid,
  keyFingerprint: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  markedAt: z.string(),
}) satisfies z.ZodType<VerificationMark>;

/** The verification marks of one mesh: read all, write all (a handful per mesh). */
export interface VerificationStore {
  load(): VerificationMark[];
  save(marks: readonly VerificationMark[]): void;
}

/** Thrown for a missing, unreadable or invalid config; the message never contains file contents. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The config directory: `$MESH_HOME`, else `$XDG_CONFIG_HOME/mesh`, else `~/.config/mesh`. */
export function defaultMeshHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.MESH_HOME) return path.resolve(env.MESH_HOME);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "mesh");
  return path.join(os.homedir(), ".config", "mesh");
}

/** Keys and settings of the meshes this peer has joined. */
export class ConfigStore {
  readonly dir: string;

  constructor(readonly home: string = defaultMeshHome()) {
    this.dir = path.join(home, "meshes");
  }

  /** Writes (or replaces) one mesh's file atomically with mode 0600. */
  save(config: TMeshConfig): string {
    const valid = ZMeshConfig.parse(config);
    const file = this.fileOf(valid.meshId);
    this.writePrivate(file, `${JSON.stringify(valid, null, 2)}\n`);
    return file;
  }

  /**
   * The keys of epochs above 0 of one mesh (docs/protocol.md, "Key epochs"), in `<meshId>.keys` beside
   * its config, mode 0600, rewritten atomically on every change.
   */
  epochKeyStore(meshId: string): EpochKeyStore {
    return this.epochKeyStoreAt(path.join(this.dir, `${ZUuid.parse(meshId)}.keys`));
  }

  /**
   * The peers marked verified in one mesh (`<meshId>.verified` beside its config, mode 0600, rewritten
   * atomically): only this machine's judgement, so it is kept with its keys and never sent anywhere.
   */
  verificationStore(meshId: string): VerificationStore {
    const file = path.join(this.dir, `${ZUuid.parse(meshId)}.verified`);
    return {
      load: () => {
        let text: string;
        try {
          text = readFileSync(file, "utf8");
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
          throw new ConfigError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
        }
        // A damaged file is an error, not an empty list: reading it as "nobody verified" would hide the
        // warning about a verified peer whose keys changed.
        const parsed = (() => {
          try {
            return z.array(ZVerificationMark).safeParse(JSON.parse(text));
          } catch {
            return undefined;
          }
        })();
        if (!parsed?.success) throw new ConfigError(`${file} is damaged; delete it and mark your verified peers again`);
        return parsed.data;
      },
      save: (marks) => this.writePrivate(file, `${JSON.stringify(z.array(ZVerificationMark).parse(marks))}\n`),
    };
  }

  /** Epoch keys kept in a file of the caller's choice under this config directory (a session's own). */
  epochKeyStoreAt(file: string): EpochKeyStore {
    return {
      load: () => {
        try {
          const parsed = z.array(ZEpochKey).safeParse(JSON.parse(readFileSync(file, "utf8")));
          return parsed.success ? parsed.data : [];
        } catch {
          return [];
        }
      },
      save: (keys) => this.writePrivate(file, `${JSON.stringify(keys)}\n`),
    };
  }

  /** The account of `mesh login` (`account.json`, 0600), if logged in. */
  account(): TAccount | undefined {
    return readJson(this.accountFile, ZAccount);
  }

  saveAccount(account: TAccount): string {
    this.writePrivate(this.accountFile, `${JSON.stringify(ZAccount.parse(account), null, 2)}\n`);
    return this.accountFile;
  }

  /** Forgets the account; false when there was none. */
  removeAccount(): boolean {
    const had = this.account() !== undefined;
    rmSync(this.accountFile, { force: true });
    return had;
  }

  /**
   * Forgets a mesh: its config, its epoch keys, its verification marks and its sessions' records (`mesh
   * leave`: they ended with it).
   */
  remove(meshId: string): void {
    const id = ZUuid.parse(meshId);
    rmSync(this.fileOf(id), { force: true });
    rmSync(path.join(this.dir, `${id}.keys`), { force: true });
    rmSync(path.join(this.dir, `${id}.verified`), { force: true });
    rmSync(path.join(this.home, "sessions", id), { recursive: true, force: true });
    syncDir(this.dir);
  }

  get accountFile(): string {
    return path.join(this.home, "account.json");
  }

  private writePrivate(file: string, text: string): void {
    writePrivateFile(file, text, [this.home]);
  }

  /** Every joined mesh, ordered by slug; files that do not parse are reported, not fatal. */
  list(): { meshes: TMeshConfig[]; broken: string[] } {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(".json") && !n.startsWith("."));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { meshes: [], broken: [] };
      throw new ConfigError(`cannot read ${this.dir}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    const meshes: TMeshConfig[] = [];
    const broken: string[] = [];
    for (const name of names) {
      const parsed = readConfig(path.join(this.dir, name));
      if (parsed) meshes.push(parsed);
      else broken.push(path.join(this.dir, name));
    }
    meshes.sort((a, b) => a.meshSlug.localeCompare(b.meshSlug) || a.meshId.localeCompare(b.meshId));
    return { meshes, broken };
  }

  /** The mesh with this id, if joined. */
  get(meshId: string): TMeshConfig | undefined {
    return ZUuid.safeParse(meshId).success ? readConfig(this.fileOf(meshId)) : undefined;
  }

  /**
   * The mesh a command works on: the one named by slug or id, or the only joined mesh when none is
   * named. Throws ConfigError with a message for people otherwise.
   */
  select(name?: string): TMeshConfig {
    const { meshes } = this.list();
    if (meshes.length === 0)
      throw new ConfigError(`no mesh joined yet (config directory ${this.home}); run: mesh join <link>`);
    if (name === undefined) {
      if (meshes.length === 1 && meshes[0]) return meshes[0];
      throw new ConfigError(
        `several meshes joined (${meshes.map((m) => m.meshSlug).join(", ")}); choose one with --mesh <slug>`,
      );
    }
    const found = meshes.filter((m) => m.meshSlug === name || m.meshId === name);
    if (found.length === 1 && found[0]) return found[0];
    if (found.length > 1) throw new ConfigError(`several joined meshes are called ${name}; use the mesh id instead`);
    throw new ConfigError(`no joined mesh called ${name} (joined: ${meshes.map((m) => m.meshSlug).join(", ")})`);
  }

  fileOf(meshId: string): string {
    return path.join(this.dir, `${meshId}.json`);
  }
}

function readJson<T>(file: string, schema: z.ZodType<T>): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const readConfig = (file: string) => readJson(file, ZMeshConfig);

/** The key material of a stored mesh, decoded. */
export interface MeshKeys {
  secrets: PeerSecrets;
  signSecretKey: Uint8Array;
  signPublicKey: string;
  boxPublicKey: string;
  meshKey: Uint8Array;
}

/** Decodes the keys of a stored mesh config (public halves derived from the secrets). */
export function meshKeysOf(config: TMeshConfig): MeshKeys {
  const secrets = {
    signSeed: fromBase64Url(config.signSeed, 32),
    boxSecretKey: fromBase64Url(config.boxSecretKey, 32),
  };
  const pairs = peerKeyPairs(secrets);
  return {
    secrets,
    signSecretKey: pairs.sign.secretKey,
    signPublicKey: toBase64Url(pairs.sign.publicKey),
    boxPublicKey: toBase64Url(pairs.box.publicKey),
    meshKey: deriveMeshKey(fromBase64Url(config.meshRootKey, 32)),
  };
}
