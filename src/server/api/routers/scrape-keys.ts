import { z } from "zod";
import * as keys from "@/server/services/reviews/api-keys";
import { engineProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["api-keys"], protect: true },
});
const admin = engineProcedure("admin");

/** API keys (administrators in the pages, or a key with the admin scope): the key is shown once at creation. */
export const apiKeysRouter = createTRPCRouter({
  list: admin
    .meta(rest("GET", "/admin/api-keys", "List API keys (prefix, scopes, last use; never the key)"))
    .input(keys.ZListApiKeysInput)
    .output(keys.ZApiKeysPage)
    .query(({ ctx, input }) => keys.listApiKeys(ctx.service, input)),
  create: admin
    .meta(rest("POST", "/admin/api-keys", "Create an API key; the key and its callback secret are in this answer only"))
    .input(keys.ZCreateApiKeyInput)
    .output(keys.ZCreatedApiKeyOut)
    .mutation(({ ctx, input }) => keys.createApiKey(ctx.service, input)),
  revoke: admin
    .meta(rest("POST", "/admin/api-keys/{id}/revoke", "Revoke an API key at once"))
    .input(z.object({ id: z.uuid() }))
    .output(keys.ZApiKeyOut)
    .mutation(({ ctx, input }) => keys.revokeApiKey(ctx.service, input)),
});
