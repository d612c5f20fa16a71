import { createTRPCRouter } from "../trpc";

/** Review-collection jobs, batches, scrapers and dashboards for the pages (Document 1). */
export const scrapeRouter = createTRPCRouter({});
