import { afterAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/server/core/client-address";
import { testDb } from "@/test/helpers";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { createCaller } from "../root";
import { createContext, type SessionUser } from "../trpc";

// Which address invite links use (docs/invites.md, "Which address links use"): the one the person
// opened the app at when it is one of the app's own (here AUTH_URL's host besides PUBLIC_BASE_URL's),
// never a Host or X-Forwarded-Host someone else wrote. Read on first use, so set before any call.
process.env.AUTH_URL = "https://app.example.test";

const db = testDb();
afterAll(() => db.$disconnect());
let next = 1;
const as = (user: SessionUser | null, headers: Record<string, string>) =>
  createCaller(
    createContext({ user, db, headers: new Headers({ [CLIENT_ADDRESS_HEADER]: `198.51.100.${next++}`, ...headers }) }),
  );

async function issue(headers: Record<string, string>) {
  const owner = await makeUser(db);
  const mesh = await makeMesh(db, owner);
  const invite = await as(owner, headers).my.createInvite({
    meshId: mesh.id,
    role: "member",
    expiresInHours: 2,
    maxUses: 2,
  });
  const listed = await as(owner, headers).my.meshInvites({ meshId: mesh.id });
  return { owner, mesh, invite, listed: listed.items[0] };
}

describe("invite links: forged hosts", () => {
  it.each([
    ["a Host of another server", { host: "evil.example" }],
    ["an X-Forwarded-Host of another server", { host: "app.example.test", "x-forwarded-host": "evil.example" }],
    ["a Host that only starts with the app's", { host: "app.example.test.evil.example" }],
    ["a Host with user info", { host: "app.example.test@evil.example" }],
  ])("ignore %s: the links stay on PUBLIC_BASE_URL", async (_, headers) => {
    const { invite, listed } = await issue(headers);
    expect(invite.shortUrl).toMatch(/^https:\/\/mesh\.example\.test\/join\/[a-z2-7]{16}$/);
    expect(invite.joinUrl).toBe(`https://mesh.example.test/join/${invite.token}`);
    expect(listed?.shortUrl).toBe(invite.shortUrl);
    expect(listed?.joinUrl).toBe(invite.joinUrl);
    const code = new URL(invite.shortUrl).pathname.split("/").pop() ?? "";
    const resolved = await as(null, headers).public.resolveInviteCode({ code });
    expect(resolved.joinUrl).toBe(invite.joinUrl);
  });
});

describe("invite links: the app's own addresses", () => {
  it("follow the app's other configured address when the page was opened there", async () => {
    const { invite, listed } = await issue({ host: "app.example.test" });
    expect(invite.shortUrl).toMatch(/^https:\/\/app\.example\.test\/join\/[a-z2-7]{16}$/);
    expect(invite.joinUrl).toBe(`https://app.example.test/join/${invite.token}`);
    expect(listed?.shortUrl).toBe(invite.shortUrl);
  });

  it("stay on PUBLIC_BASE_URL without a request (server calls with no Host)", async () => {
    const { invite } = await issue({});
    expect(invite.joinUrl).toBe(`https://mesh.example.test/join/${invite.token}`);
  });
});
