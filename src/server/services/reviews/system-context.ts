import type { Db } from "@/server/core/db";
import type { TReviewSettings } from "@/server/queue/settings";
import { SYSTEM, type SystemActor } from "../actor";
import { serviceContext, type Sealer, type ServiceContext, type ServiceSettings } from "../context";

function notHere(name: string): never {
  throw new Error(`${name} is a setting of the web app, not of this process`);
}

/**
 * The settings of a process that runs the review engine on its own (the worker, benches, tests): the
 * engine's settings as the process parsed them; the web app's addresses are not its to read.
 */
export function reviewOnlySettings(review: TReviewSettings, brokerUrl?: string): ServiceSettings {
  return {
    review,
    get publicBaseUrl(): string {
      return notHere("PUBLIC_BASE_URL");
    },
    // The worker's BROKER_URL: where its review bots connect as peers (review-bots/send-as-bot.ts).
    get brokerUrl(): string {
      return brokerUrl ?? notHere("PUBLIC_BROKER_URL");
    },
  };
}

/** The system's context in a process that runs the review engine on its own (the worker's loops, benches, tests). */
export function reviewSystemContext(parts: {
  db: Db;
  sealer: Sealer;
  review: TReviewSettings;
  /** The broker review bots connect to (the worker's BROKER_URL). */
  brokerUrl?: string;
  now?: () => Date;
  random?: () => number;
}): ServiceContext<SystemActor> {
  const { review, brokerUrl, ...rest } = parts;
  return serviceContext(SYSTEM, { ...rest, settings: reviewOnlySettings(review, brokerUrl) });
}
