import type { ServiceContext } from "../context";
import { administratorOf } from "../actor";
import { visibleExecutions } from "../pipelines/access";
import { placesOf } from "../pipelines/serialize";
import { ownedBy } from "../reviews/access";
import { HOME_RECENT_LIMIT, type THomeEngineOut } from "./home-overview.schema";

/**
 * The administrator's overview of the review engine: the newest jobs and pipeline runs (five each).
 * FORBIDDEN for any other user here too, not only in the procedure, as the pipelines' own rule.
 */
export async function recentEngineActivity(ctx: ServiceContext): Promise<THomeEngineOut> {
  administratorOf(ctx.actor);
  const [jobs, executions] = await Promise.all([
    ctx.db.job.findMany({
      where: ownedBy(ctx.actor),
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: HOME_RECENT_LIMIT,
      select: {
        id: true,
        status: true,
        platform: true,
        placeId: true,
        placeUrl: true,
        placeName: true,
        reviewCount: true,
        createdAt: true,
        finishedAt: true,
        place: { select: { name: true } },
      },
    }),
    ctx.db.pipelineExecution.findMany({
      where: visibleExecutions(ctx.actor),
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: HOME_RECENT_LIMIT,
      // Never the result or synthesis JSON: only what the list shows.
      select: {
        id: true,
        pipelineId: true,
        status: true,
        places: true,
        input: true,
        reviewCount: true,
        createdAt: true,
        finishedAt: true,
        pipeline: { select: { name: true } },
      },
    }),
  ]);
  return {
    jobs: jobs.map((j) => ({
      id: j.id,
      status: j.status,
      platform: j.platform,
      place: { name: j.placeName ?? j.place?.name ?? null, key: j.placeId ?? j.placeUrl ?? "" },
      reviewCount: j.reviewCount,
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
    })),
    executions: executions.map((e) => ({
      id: e.id,
      pipelineId: e.pipelineId,
      pipelineName: e.pipeline.name,
      status: e.status,
      places: placesOf(e).map((p) => ({ name: p.name, key: p.place_key })),
      reviewCount: e.reviewCount,
      createdAt: e.createdAt,
      finishedAt: e.finishedAt,
    })),
  };
}
