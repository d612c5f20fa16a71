import { visitorCtx } from "@/test/mesh-fixtures";
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { registerUser } from "@/server/services/users/register-user";
import { testDb, uid } from "@/test/helpers";
import { appRouter, createCaller } from "./root";
import {
  adminProcedure,
  createCallerFactory,
  createContext,
  createTRPCRouter,
  protectedProcedure,
  publicProcedure,
  type SessionUser,
} from "./trpc";

const db = testDb();
afterAll(() => db.$disconnect());

async function signedIn(isAdmin = false): Promise<SessionUser> {
  const email = `${uid("trpc")}@example.test`;
  const user = await registerUser(visitorCtx(db), { name: "Tess", email, password: "a-long-password" });
  return { id: user.id, email, name: "Tess", isAdmin };
}

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : `unexpected ${String(error)}`;
  }
};

// A router with one procedure per level, to check the middlewares themselves.
const probe = createTRPCRouter({
  open: publicProcedure.query(() => "open"),
  member: protectedProcedure.query(({ ctx }) => ctx.actor.userId),
  admin: adminProcedure.query(() => "admin"),
  conflict: publicProcedure.query(() => {
    throw new AppError("CONFLICT", "slug_taken", { field: "slug" });
  }),
});
const probeCaller = createCallerFactory(probe);

describe("tRPC procedures", () => {
  it("has the five routers", () => {
    expect(Object.keys(appRouter._def.record).sort()).toEqual(["admin", "my", "pipelines", "public", "scrape"]);
  });

  it("public → protected (UNAUTHORIZED) → admin (FORBIDDEN)", async () => {
    const user = await signedIn();
    const admin = await signedIn(true);
    const anon = probeCaller(createContext({ user: null, db }));
    const member = probeCaller(createContext({ user, db }));
    const boss = probeCaller(createContext({ user: admin, db }));
    expect(await code(anon.open())).toBe("OK");
    expect(await code(anon.member())).toBe("UNAUTHORIZED");
    expect(await code(anon.admin())).toBe("UNAUTHORIZED");
    expect(await member.member()).toBe(user.id);
    expect(await code(member.admin())).toBe("FORBIDDEN");
    expect(await boss.admin()).toBe("admin");
  });

  it("maps an AppError through the one error table", async () => {
    expect(await code(probeCaller(createContext({ user: null, db })).conflict())).toBe("CONFLICT");
  });

  it("my.profile needs a session and returns the user's own profile", async () => {
    const user = await signedIn();
    expect(await code(createCaller(createContext({ user: null, db })).my.profile())).toBe("UNAUTHORIZED");
    const profile = await createCaller(createContext({ user, db })).my.profile();
    expect(profile).toMatchObject({ id: user.id, email: user.email, isAdmin: false });
    expect(profile).not.toHaveProperty("passwordHash");
  });

  it("returns zod errors flattened over HTTP", async () => {
    const user = await signedIn();
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://test/api/trpc/my.updateProfile", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(superjson.serialize({ name: "" })),
      }),
      router: appRouter,
      createContext: () => createContext({ user, db }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: {
        json: { data: { code: string; zodError: { fieldErrors: Record<string, string[]> }; details: unknown } };
      };
    };
    expect(body.error.json.data.code).toBe("BAD_REQUEST");
    expect(body.error.json.data.zodError.fieldErrors).toEqual({ name: ["name_required"] });
    // The one shape of validation details on every route.
    expect(body.error.json.data.details).toEqual({ issues: [{ path: "name", message: "name_required" }] });
  });
});
