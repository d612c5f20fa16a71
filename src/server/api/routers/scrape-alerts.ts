import { z } from "zod";
import * as as from "@/server/services/alerts/alert-rules.schema";
import * as alerts from "@/server/services/alerts/alert-rules";
import { engineProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST" | "DELETE", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["alerts"], protect: true },
});

/** Alert rules of schedules and places, and the alerts they made (docs/review-engine.md, "Alerts"). */
export const alertsRouter = createTRPCRouter({
  create: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/alert-rules",
        "Create an alert rule of a schedule or place: a new review at or below N stars, a health-and-safety case, or a category's negative share rising; delivered by signed webhook, e-mail or into a mesh",
      ),
    )
    .input(as.ZCreateAlertRuleInput)
    .output(as.ZAlertRuleOut.extend({ webhook_secret: z.string().nullable() }))
    .mutation(({ ctx, input }) => alerts.createAlertRule(ctx.service, input)),
  list: engineProcedure("jobs:read")
    .meta(rest("GET", "/alert-rules", "The alert rules of a schedule or place, each with its newest alerts"))
    .input(as.ZListAlertRulesInput)
    .output(z.array(as.ZAlertRuleOut))
    .query(({ ctx, input }) => alerts.listAlertRules(ctx.service, input)),
  meshes: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/alert-rules/meshes",
        "The meshes alerts may go to: those the key's or administrator's person owns or administers, with their groups",
      ),
    )
    .input(z.object({}).optional())
    .output(z.array(z.object({ mesh_id: z.string(), mesh_name: z.string(), groups: z.array(z.string()) })))
    .query(({ ctx }) => alerts.listAlertMeshes(ctx.service)),
  setEnabled: engineProcedure("jobs:write")
    .meta(rest("POST", "/alert-rules/{rule_id}/enabled", "Turn an alert rule on or off"))
    .input(as.ZSetAlertRuleEnabledInput)
    .output(as.ZAlertRuleOut)
    .mutation(({ ctx, input }) => alerts.setAlertRuleEnabled(ctx.service, input)),
  delete: engineProcedure("jobs:write")
    .meta(rest("DELETE", "/alert-rules/{rule_id}", "Delete an alert rule and its alerts"))
    .input(as.ZAlertRuleIdInput)
    .output(z.object({ id: z.string(), deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await alerts.deleteAlertRule(ctx.service, input);
      return { id: input.rule_id, deleted: true as const };
    }),
});
