import { createTRPCRouter } from "../trpc";

/** Analysis pipelines and their executions for the pages (Document 1). */
export const pipelinesRouter = createTRPCRouter({});
