import * as reg from "@/server/services/reviews/registry-admin";
import * as rs from "@/server/services/reviews/registry-admin.schema";
import { engineProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST" | "PATCH" | "PUT", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["scraper-registry"], protect: true },
});
const admin = engineProcedure("admin");

/** Scraper registry administration (admin scope): REST under /api/admin/scrapers. */
export const registryRouter = createTRPCRouter({
  list: admin
    .meta(rest("GET", "/admin/scrapers", "List scraper versions and the active allocation's sum"))
    .input(rs.ZListScrapersInput)
    .output(rs.ZScrapersOut)
    .query(({ ctx, input }) => reg.listScraperVersions(ctx.service, input)),
  get: admin
    .meta(rest("GET", "/admin/scrapers/{id}", "One scraper version"))
    .input(rs.ZScraperIdInput)
    .output(rs.ZScraperVersionOut)
    .query(({ ctx, input }) => reg.getScraperVersion(ctx.service, input)),
  create: admin
    .meta(rest("POST", "/admin/scrapers", "Register a scraper version"))
    .input(rs.ZCreateScraperInput)
    .output(rs.ZScraperVersionOut)
    .mutation(({ ctx, input }) => reg.createScraperVersion(ctx.service, input)),
  update: admin
    .meta(rest("PATCH", "/admin/scrapers/{id}", "Update implementation, description or configuration"))
    .input(rs.ZUpdateScraperInput)
    .output(rs.ZScraperVersionOut)
    .mutation(({ ctx, input }) => reg.updateScraperVersion(ctx.service, input)),
  traffic: admin
    .meta(rest("PUT", "/admin/scrapers/{id}/traffic", "Set the traffic percentage of a version"))
    .input(rs.ZScraperTrafficInput)
    .output(rs.ZScraperVersionOut)
    .mutation(({ ctx, input }) => reg.setScraperTraffic(ctx.service, input)),
  promote: admin
    .meta(rest("POST", "/admin/scrapers/{id}/promote", "Promote: 100 % of traffic to this version, 0 % to the others"))
    .input(rs.ZScraperIdInput)
    .output(rs.ZScraperVersionOut)
    .mutation(({ ctx, input }) => reg.promoteScraperVersion(ctx.service, input)),
  deprecate: admin
    .meta(rest("POST", "/admin/scrapers/{id}/deprecate", "Deprecate: out of routing, share 0"))
    .input(rs.ZScraperIdInput)
    .output(rs.ZScraperVersionOut)
    .mutation(({ ctx, input }) => reg.deprecateScraperVersion(ctx.service, input)),
});
