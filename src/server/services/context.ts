import { open, parseKeyRing, seal } from "@/server/core/crypto/seal";
import { db as globalDb, type Db } from "@/server/core/db";
import { linkBaseFor } from "@/server/core/link-base";
import { appEnv } from "@/server/env";
import { reviewSettings, type TReviewSettings } from "@/server/queue/settings";
import type { Actor } from "./actor";

/** Seals and opens secrets at rest (AES-256-GCM under the configured key ring). */
export interface Sealer {
  seal(plaintext: Uint8Array | string, aad: string): string;
  open(sealed: string, aad: string): Buffer;
}

/**
 * What every use case needs besides its input: the one first argument of every service
 * (`archiveMesh(ctx, input)`). Routers, REST handlers, the worker and the broker build one per request,
 * job or frame with {@link serviceContext}; tests build theirs the same way with their own database,
 * clock or randomness.
 */
export interface ServiceContext<A extends Actor = Actor> {
  db: Db;
  actor: A;
  /** The clock: services never call `new Date()` for a time they store or compare. */
  now: () => Date;
  /** Random numbers in [0, 1) (traffic-weighted routing); tests pass a fixed sequence. */
  random: () => number;
  sealer: Sealer;
  settings: ServiceSettings;
}

/**
 * The process's configuration as services read it, resolved on first read: the broker and the worker
 * never parse the web app's environment for a setting they do not use.
 */
export interface ServiceSettings {
  /** Public address of the web app, for links shown to people. */
  readonly publicBaseUrl: string;
  /** Address peers connect to, written into invites. */
  readonly brokerUrl: string;
  /** The review engine's queue, limits and timeouts (shared by the web app and the worker). */
  readonly review: TReviewSettings;
}

/** A sealer over a key ring given as SECRETS_KEYS is written. */
export function sealerOf(secretsKeys: string): Sealer {
  const ring = parseKeyRing(secretsKeys);
  return { seal: (plaintext, aad) => seal(ring, plaintext, aad), open: (sealed, aad) => open(ring, sealed, aad) };
}

let processSealer: Sealer | undefined;

/** The sealer on this process's key ring (SECRETS_KEYS), built once. */
export function configuredSealer(): Sealer {
  processSealer ??= sealerOf(appEnv().SECRETS_KEYS);
  return processSealer;
}

/** The process's sealer, built on first use (the broker never builds it unless a service seals). */
const lazySealer: Sealer = {
  seal: (plaintext, aad) => configuredSealer().seal(plaintext, aad),
  open: (sealed, aad) => configuredSealer().open(sealed, aad),
};

/** The web app's settings (src/server/env.ts), each validated on first read. */
const envSettings: ServiceSettings = {
  get publicBaseUrl() {
    return appEnv().PUBLIC_BASE_URL;
  },
  get brokerUrl() {
    return appEnv().PUBLIC_BROKER_URL;
  },
  get review() {
    return reviewSettings();
  },
};

/** Builds the context of one request, job or frame; what is not given is the process's own. */
export function serviceContext<A extends Actor>(
  actor: A,
  parts: Partial<Omit<ServiceContext<A>, "actor">> = {},
): ServiceContext<A> {
  return {
    db: parts.db ?? globalDb(),
    actor,
    now: parts.now ?? (() => new Date()),
    random: parts.random ?? Math.random,
    sealer: parts.sealer ?? lazySealer,
    settings: parts.settings ?? envSettings,
  };
}

/** Settings with some values replaced (a test's broker address, say); the others still read on first use. */
export function settingsWith(base: ServiceSettings, changes: Partial<ServiceSettings>): ServiceSettings {
  return {
    get publicBaseUrl() {
      return changes.publicBaseUrl ?? base.publicBaseUrl;
    },
    get brokerUrl() {
      return changes.brokerUrl ?? base.brokerUrl;
    },
    get review() {
      return changes.review ?? base.review;
    },
  };
}

/**
 * The web app's settings for one request: links shown to the person (join links, QR codes) use the
 * address they opened the app at when it is one of the app's own, else PUBLIC_BASE_URL
 * (src/server/core/link-base.ts). Read on first use, like the process's settings.
 */
export function requestSettings(headers: Headers): ServiceSettings {
  return settingsWith(envSettings, {
    get publicBaseUrl() {
      const env = appEnv();
      return linkBaseFor(headers, { publicBaseUrl: env.PUBLIC_BASE_URL, authUrl: env.AUTH_URL });
    },
  });
}

/** The same context acting as someone else (a REST handler that resolved its key after building it, say). */
export function withActor<A extends Actor>(ctx: ServiceContext, actor: A): ServiceContext<A> {
  return { ...ctx, actor };
}
