import { createTRPCRouter } from "../trpc";

/** Unauthenticated operations (Document 3, router public). */
export const publicRouter = createTRPCRouter({});
