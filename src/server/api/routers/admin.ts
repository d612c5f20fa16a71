import { createTRPCRouter } from "../trpc";

/** Read-only administration (Document 3, router admin); its procedures use adminProcedure. */
export const adminRouter = createTRPCRouter({});
