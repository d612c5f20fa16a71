import type { ScraperVersion } from "@/generated/prisma/client";
import type { Prisma } from "@/server/core/db";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import type { ServiceContext } from "../context";
import type { ReviewActor } from "./access";
import { KNOWN_IMPLEMENTATIONS as SCRAPER_IMPLEMENTATIONS } from "./implementations";
import type { z } from "zod";
import { invalidateRegistry } from "./registry-cache";
import type {
  TScraperVersionOut,
  ZCreateScraperInput,
  ZListScrapersInput,
  ZScraperTrafficInput,
  ZUpdateScraperInput,
} from "./registry-admin.schema";
import { allocationSum } from "./routing";

/** The one platform of this installation (the spec's neutral word). */
export const PLATFORM = "platform";

function toOut(v: ScraperVersion): TScraperVersionOut {
  return {
    id: v.id,
    platform: v.platform,
    version: v.version,
    variant: v.variant,
    implementation: v.implementation,
    description: v.description,
    config: (v.config ?? {}) as Record<string, unknown>,
    traffic_percent: v.trafficPercent,
    deprecated: v.deprecated,
    deprecated_at: v.deprecatedAt,
    promoted_at: v.promotedAt,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
  };
}

function checkImplementation(name: string) {
  if (!SCRAPER_IMPLEMENTATIONS.includes(name)) {
    throw new AppError("UNPROCESSABLE", "unknown_implementation", {
      implementation: name,
      known: [...SCRAPER_IMPLEMENTATIONS],
    });
  }
}

/** Locks the platform's versions for an allocation change and returns the active ones. */
async function lockActive(tx: Prisma.TransactionClient, platform: string) {
  await tx.$queryRaw`SELECT id FROM scraper_versions WHERE platform = ${platform} FOR UPDATE`;
  return tx.scraperVersion.findMany({ where: { platform, deprecated: false } });
}

function checkSum(sum: number) {
  if (sum > 100) throw new AppError("UNPROCESSABLE", "allocation_exceeds_100", { sum });
}

/** Every version (deprecated too, unless asked not to), with the active allocation's sum. */
export async function listScraperVersions(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZListScrapersInput>,
) {
  const { db } = ctx;
  const rows = await db.scraperVersion.findMany({
    where: { platform: input.platform, ...(input.include_deprecated === "false" ? { deprecated: false } : {}) },
    orderBy: [{ deprecated: "asc" }, { createdAt: "asc" }],
  });
  return { items: rows.map(toOut), allocation_sum: allocationSum(rows.filter((r) => !r.deprecated)) };
}

/** One version; NOT_FOUND when absent. */
export async function getScraperVersion(ctx: ServiceContext<ReviewActor>, input: { id: string }) {
  const row = await ctx.db.scraperVersion.findUnique({ where: { id: input.id } });
  if (!row) throw new AppError("NOT_FOUND", "scraper_version_not_found");
  return toOut(row);
}

/** Registers a version; its share must keep the active sum at most 100. */
export async function createScraperVersion(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZCreateScraperInput>,
) {
  const { db } = ctx;
  checkImplementation(input.implementation);
  try {
    const row = await db.$transaction(async (tx) => {
      const active = await lockActive(tx, input.platform);
      checkSum(allocationSum(active) + input.traffic_percent);
      return tx.scraperVersion.create({
        data: {
          platform: input.platform,
          version: input.version,
          variant: input.variant,
          implementation: input.implementation,
          description: input.description ?? null,
          config: input.config as Prisma.InputJsonValue,
          trafficPercent: input.traffic_percent,
        },
      });
    });
    invalidateRegistry();
    return toOut(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "scraper_version_exists", { version: input.version, variant: input.variant });
    throw error;
  }
}

/** Changes the implementation, description or configuration of a version. */
export async function updateScraperVersion(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZUpdateScraperInput>,
) {
  const { db } = ctx;
  if (input.implementation) checkImplementation(input.implementation);
  const { count } = await db.scraperVersion.updateMany({
    where: { id: input.id },
    data: {
      ...(input.implementation ? { implementation: input.implementation } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.config ? { config: input.config as Prisma.InputJsonValue } : {}),
    },
  });
  if (count === 0) throw new AppError("NOT_FOUND", "scraper_version_not_found");
  invalidateRegistry();
  return getScraperVersion(ctx, { id: input.id });
}

/** Sets one version's share; a deprecated version keeps 0; the active sum stays at most 100. */
export async function setScraperTraffic(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZScraperTrafficInput>,
) {
  const { db } = ctx;
  await db.$transaction(async (tx) => {
    const row = await tx.scraperVersion.findUnique({ where: { id: input.id } });
    if (!row) throw new AppError("NOT_FOUND", "scraper_version_not_found");
    if (row.deprecated && input.traffic_percent > 0) throw new AppError("UNPROCESSABLE", "scraper_version_deprecated");
    const active = await lockActive(tx, row.platform);
    checkSum(allocationSum(active.filter((v) => v.id !== row.id)) + input.traffic_percent);
    await tx.scraperVersion.update({ where: { id: row.id }, data: { trafficPercent: input.traffic_percent } });
  });
  invalidateRegistry();
  return getScraperVersion(ctx, { id: input.id });
}

/** Promote: this version takes 100 % of routed traffic, every other active version 0 % (they stay registered). */
export async function promoteScraperVersion(ctx: ServiceContext<ReviewActor>, input: { id: string }) {
  const { db } = ctx;
  const { id } = input;
  await db.$transaction(async (tx) => {
    const row = await tx.scraperVersion.findUnique({ where: { id } });
    if (!row) throw new AppError("NOT_FOUND", "scraper_version_not_found");
    if (row.deprecated) throw new AppError("UNPROCESSABLE", "scraper_version_deprecated");
    await lockActive(tx, row.platform);
    await tx.scraperVersion.updateMany({
      where: { platform: row.platform, id: { not: id } },
      data: { trafficPercent: 0 },
    });
    await tx.scraperVersion.update({ where: { id }, data: { trafficPercent: 100, promotedAt: ctx.now() } });
  });
  invalidateRegistry();
  return getScraperVersion(ctx, { id });
}

/** Deprecate: out of routing (share 0, not selectable explicitly); the others' shares are left as they are. */
export async function deprecateScraperVersion(ctx: ServiceContext<ReviewActor>, input: { id: string }) {
  const { db } = ctx;
  const { id } = input;
  const { count } = await db.scraperVersion.updateMany({
    where: { id, deprecated: false },
    data: { deprecated: true, deprecatedAt: ctx.now(), trafficPercent: 0 },
  });
  if (count === 0) await getScraperVersion(ctx, { id }); // NOT_FOUND when absent; already deprecated is fine
  invalidateRegistry();
  return getScraperVersion(ctx, { id });
}
