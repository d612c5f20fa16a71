import { z } from "zod";
import { MEMBER_ROLES } from "../meshes/schemas";

/** The most meshes the home page asks for; the dashboard lists the rest. */
export const HOME_MESHES_MAX = 12;
/** Jobs and pipeline runs the home page shows to administrators. */
export const HOME_RECENT_LIMIT = 5;

export const ZHomeMeshesInput = z.object({
  limit: z.coerce.number().int().min(1).max(HOME_MESHES_MAX).default(6),
});
export type THomeMeshesInput = z.output<typeof ZHomeMeshesInput>;

/**
 * One mesh of the signed-in user with its presence: people online of all its people (a person is online
 * when any of their members has a live connection; docs/mesh-api.md, "Who is online").
 */
export const ZHomeMesh = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  archived: z.boolean(),
  isOwner: z.boolean(),
  myRole: z.enum(MEMBER_ROLES),
  online: z.number().int(),
  people: z.number().int(),
});
export const ZHomeMeshesOut = z.object({ items: z.array(ZHomeMesh), total: z.number().int() });
export type THomeMeshesOut = z.infer<typeof ZHomeMeshesOut>;

const ZPlace = z.object({ name: z.string().nullable(), key: z.string() });

/** What the administrator's overview shows of a job: place, state, size and times (never callbacks or secrets). */
export const ZHomeJob = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  place: ZPlace,
  platform: z.string(),
  reviewCount: z.number().int(),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
});

/** A pipeline run: which pipeline, the places it analysed, its state and size. */
export const ZHomeExecution = z.object({
  id: z.string(),
  pipelineId: z.string(),
  pipelineName: z.string(),
  status: z.enum(["queued", "running", "succeeded", "failed"]),
  places: z.array(ZPlace),
  reviewCount: z.number().int().nullable(),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
});
export const ZHomeEngineOut = z.object({ jobs: z.array(ZHomeJob), executions: z.array(ZHomeExecution) });
export type THomeEngineOut = z.infer<typeof ZHomeEngineOut>;
