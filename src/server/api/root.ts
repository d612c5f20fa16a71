import { adminRouter } from "./routers/admin";
import { myRouter } from "./routers/my";
import { pipelinesRouter } from "./routers/pipelines";
import { publicRouter } from "./routers/public";
import { scrapeRouter } from "./routers/scrape";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  my: myRouter,
  admin: adminRouter,
  public: publicRouter,
  scrape: scrapeRouter,
  pipelines: pipelinesRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: `createCaller(createContext({ user }))`. */
export const createCaller = createCallerFactory(appRouter);
