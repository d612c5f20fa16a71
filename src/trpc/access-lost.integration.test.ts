// A removed member's open live page (issue 44): the poll's error must tell "you lost access" apart from
// a network blip, so the page says so and stops retrying. A real tRPC client (the app's own link and
// transformer) against the /api/trpc handler, and against a closed port for the blip.
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, describe, expect, it } from "vitest";
import type { AppRouter } from "@/server/api/root";
import type { SessionUser } from "@/server/api/trpc";
import { trpcRoute } from "@/server/api/trpc-route";
import { freePort, testDb } from "@/test/helpers";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { accessLost, accessLostReason, pollUnlessAccessLost, retryUnlessAccessLost } from "./access-lost";

const db = testDb();
afterAll(() => db.$disconnect());

const clientAs = (user: SessionUser) =>
  createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "http://127.0.0.1/api/trpc",
        transformer: superjson,
        fetch: (url, init) => trpcRoute(async () => user)(new Request(url, init as RequestInit)),
      }),
    ],
  });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (error: unknown) => error,
  );

describe("a poll that lost access", () => {
  it("is told apart from a network failure: no retry, no further polling", async () => {
    const owner = await makeUser(db);
    const member = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const row = await addMember(db, mesh.id, member);
    const client = clientAs(member);
    await expect(client.my.stream.query({ meshId: mesh.id })).resolves.toMatchObject({ members: expect.any(Array) });

    await db.member.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    const removed = await failureOf(client.my.stream.query({ meshId: mesh.id }));
    expect(accessLost(removed)).toBe(true);
    expect(accessLostReason(removed)).toBe("removed");
    expect(retryUnlessAccessLost(0, removed)).toBe(false);
    expect(pollUnlessAccessLost(4000)({ state: { error: removed } })).toBe(false);

    const port = await freePort();
    const blip = await failureOf(
      createTRPCClient<AppRouter>({
        links: [httpBatchLink({ url: `http://127.0.0.1:${port}/api/trpc`, transformer: superjson })],
      }).my.stream.query({ meshId: mesh.id }),
    );
    expect(accessLost(blip)).toBe(false);
    expect(accessLostReason(blip)).toBeNull();
    expect(retryUnlessAccessLost(0, blip)).toBe(true);
    expect(retryUnlessAccessLost(3, blip)).toBe(false);
    expect(pollUnlessAccessLost(4000)({ state: { error: blip } })).toBe(4000);
    expect(pollUnlessAccessLost(4000)({ state: { error: null } })).toBe(4000);

    // Signed out meanwhile: told apart from a removal, and not retried either.
    const signedOut = await failureOf(
      createTRPCClient<AppRouter>({
        links: [
          httpBatchLink({
            url: "http://127.0.0.1/api/trpc",
            transformer: superjson,
            fetch: (url, init) => trpcRoute(async () => null)(new Request(url, init as RequestInit)),
          }),
        ],
      }).my.stream.query({ meshId: mesh.id }),
    );
    expect(accessLostReason(signedOut)).toBe("signedOut");
    expect(retryUnlessAccessLost(0, signedOut)).toBe(false);
  });
});
