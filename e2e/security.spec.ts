// Security regression suite against the production server (docs/security.md): one test per attack of
// issue 16, each run from this machine to 127.0.0.1/localhost only.
import http from "node:http";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signUp, test, uniqueEmail } from "./fixtures";
import { baseURL } from "./playwright.config";
import { pidListeningOn, residentBytes } from "../src/test/processes";

const origin = new URL(baseURL);
const MIB = 1024 * 1024;

interface UploadResult {
  status: number | null;
  /** Bytes of the body written before the server answered or closed. */
  sent: number;
}

/**
 * POSTs `bytes` of body to `path` in 1 MiB chunks (declared with Content-Length, or chunked), and
 * stops writing as soon as the server answers or closes the connection.
 */
function upload(
  path: string,
  bytes: number,
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<UploadResult> {
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: number | null) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, sent });
    };
    const req = http.request({
      host: origin.hostname,
      port: origin.port,
      path,
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.chunked ? {} : { "content-length": String(bytes) }),
        ...options.headers,
      },
    });
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? null);
    });
    req.on("error", () => finish(null));
    const chunk = Buffer.alloc(MIB, 0x20);
    const pump = () => {
      while (!done && sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

/** A signed-in page's API request context (the session cookie travels with it). */
async function signedIn(page: Page): Promise<APIRequestContext> {
  await signUp(page, "Sam Security", uniqueEmail("sec"), "a-long-password-sec");
  return page.request;
}

test.describe("bounded request bodies", () => {
  test("a body above the limit is refused with 413 before it is read, declared or streamed", async () => {
    for (const path of [
      "/api/my/meshes",
      "/api/trpc/my.createMesh",
      "/api/auth/callback/credentials",
      "/api/public/stats",
    ]) {
      const declared = await upload(path, 200 * MIB);
      expect(declared.status, `${path} declared`).toBe(413);
      expect(declared.sent, `${path} declared: the server answered before the body`).toBeLessThan(100 * MIB);
    }
    const streamed = await upload("/api/my/meshes", 200 * MIB, { chunked: true });
    expect(streamed.status).toBe(413);
    expect(streamed.sent).toBeLessThan(100 * MIB);
  });

  test("ten parallel 200 MB uploads leave the web process's memory within 50 MB", async () => {
    test.setTimeout(120_000);
    const pid = pidListeningOn(Number(origin.port));
    const before = residentBytes(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => upload("/api/my/meshes", 200 * MIB, { chunked: i % 2 === 1 })),
      );
      for (const r of results) expect(r.status).toBe(413);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before, `resident memory grew from ${before} to ${peak} bytes`).toBeLessThan(50 * MIB);
  });
});

test.describe("cross-site requests with the session cookie", () => {
  test("a simple (text/plain or form) request is refused with 415, a foreign origin with 403, and nothing is created", async ({
    page,
  }) => {
    const api = await signedIn(page);
    const slug = `csrf-${Date.now().toString(36)}`;
    const body = JSON.stringify({ name: "Stolen", slug });
    const textPlain = await api.post("/api/my/meshes", {
      headers: { "content-type": "text/plain", origin: "http://evil.localhost:9999" },
      data: body,
    });
    expect(textPlain.status()).toBe(415);
    const form = await api.post("/api/my/meshes", { headers: { origin: baseURL }, form: { name: "Stolen", slug } });
    expect(form.status()).toBe(415);
    const foreign = await api.post("/api/my/meshes", {
      headers: { "content-type": "application/json", origin: "http://evil.localhost:9999" },
      data: body,
    });
    expect(foreign.status()).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: "FORBIDDEN", message: "csrf_refused" } });
    // No Origin: the fetch metadata decides; a same-site page (another port or subdomain) is not the app.
    for (const site of ["cross-site", "same-site", "none"]) {
      const res = await api.post("/api/my/meshes", {
        headers: { "content-type": "application/json", "sec-fetch-site": site },
        data: body,
      });
      expect(res.status(), site).toBe(403);
    }
    const sameSitePort = await api.post("/api/my/meshes", {
      headers: { "content-type": "application/json", origin: `http://${origin.hostname}:9` },
      data: body,
    });
    expect(sameSitePort.status()).toBe(403);
    const trpc = await api.post("/api/trpc/my.createMesh", {
      headers: { "content-type": "text/plain", origin: "http://evil.localhost:9999" },
      data: JSON.stringify({ json: { name: "Stolen", slug } }),
    });
    expect(trpc.status()).toBe(415);
    const mine = await api.get("/api/my/meshes");
    expect(JSON.stringify(await mine.json())).not.toContain(slug);
    // The same request from the page's own origin (or same-origin fetch metadata) goes through.
    const ok = await api.post("/api/my/meshes", {
      headers: { "content-type": "application/json", origin: baseURL },
      data: body,
    });
    expect(ok.status()).toBe(200);
    const sameSite = await api.post("/api/my/meshes", {
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      data: JSON.stringify({ name: "Mine", slug: `${slug}-2` }),
    });
    expect(sameSite.status()).toBe(200);
  });
});

test.describe("client addresses", () => {
  test("a spoofed X-Forwarded-For does not get past the invite preview limit", async ({ request }) => {
    // PREVIEW_RATE_PER_MINUTE is 120 (two more a second): with a new forwarded address on every request,
    // the refusal still comes once the socket's address has used its bucket.
    const started = Date.now();
    let ok = 0;
    let limited = false;
    for (let i = 0; i < 400 && !limited; i++) {
      const res = await request.get("/api/public/invite/not-a-token", {
        headers: { "x-forwarded-for": `198.51.100.${i % 250}`, "x-real-ip": `203.0.113.${i % 250}` },
      });
      limited = res.status() === 429;
      if (!limited) ok += 1;
    }
    expect(limited).toBe(true);
    expect(ok).toBeLessThanOrEqual(120 + Math.ceil(((Date.now() - started) / 60_000) * 120));
  });
});

test.describe("shared caches", () => {
  test("a batch mixing public stats with a private procedure is not cacheable", async ({ page }) => {
    const api = await signedIn(page);
    const res = await api.get(
      `/api/trpc/public.stats,my.meshes?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { json: {} } }))}`,
    );
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    const alone = await api.get("/api/trpc/public.stats?batch=1&input=%7B%7D");
    expect(alone.headers()["cache-control"]).toContain("public");
  });
});

test.describe("security headers", () => {
  test("pages and API answers carry CSP with a nonce, frame protection, nosniff and a referrer policy", async ({
    request,
  }) => {
    const page = await request.get("/en");
    const headers = page.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=_-]+'/);
    expect(headers["content-security-policy"]).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-frame-options"]).toBe("DENY");
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
    expect(await page.text()).toContain(`nonce="${nonce}"`);
    const api = await request.get("/api/public/stats");
    expect(api.headers()["x-content-type-options"]).toBe("nosniff");
    expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

test.describe("malformed addresses", () => {
  test("a path with a malformed percent-escape is answered 400 malformed_path, on pages and API routes alike (it was a 500)", async ({
    request,
  }) => {
    for (const path of [
      "/en/%E0%A4%A",
      "/en/join/%E0%A4%A",
      "/en/pipelines/review-analytics/executions/01a20f5c-bfef-745d-a837-e8f7d2354d43/evidence/%E0%A4%A",
      "/api/pipelines/%E0%A4%A",
      "/%",
    ]) {
      const answer = await request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(400);
      expect(await answer.json(), path).toEqual({ error: { code: "BAD_REQUEST", message: "malformed_path" } });
      expect(answer.headers()["x-content-type-options"], path).toBe("nosniff");
    }
    // A well-formed escape still reaches the app.
    expect((await request.get("/en/join/%41bc", { maxRedirects: 0 })).status()).toBeLessThan(500);
  });
});

test.describe("sign-up", () => {
  // Issue 41: a new account is signed in at once, so sign-up tells a new address from a taken one (bounded by
  // the sign-up limits; the taken address' owner is mailed a notice). A taken address is answered alike
  // every time, whatever password is tried, and nothing of its account changes.
  test("signs a new e-mail in at once and answers a taken one alike every time", async ({ browser }) => {
    const answers: string[] = [];
    const taken = uniqueEmail("taken");
    for (const [email, password] of [
      [taken, "a-long-password-first"],
      [taken, "another-long-password"],
      [taken, "a-third-long-password"],
      [uniqueEmail("fresh"), "a-long-password-fourth"],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto("/en/sign-up");
      await page.getByLabel("Name").fill("Tom Taken");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page).toHaveURL(/\/en\/(dashboard|sign-in\?)/);
      answers.push(
        `${new URL(page.url()).pathname} ${(await page.locator("main").innerText()).replace(email, "<e-mail>")}`,
      );
      await context.close();
    }
    expect(answers[0]).toMatch(/^\/en\/dashboard /);
    expect(answers[1]).toMatch(/^\/en\/sign-in /);
    expect(answers[2]).toBe(answers[1]);
    expect(answers[3]).toMatch(/^\/en\/dashboard /);
  });
});

test.describe("sign-up limits", () => {
  test("sign-ups of one e-mail are refused past SIGNUP_RATE_PER_MINUTE (default 3, one more every 20 s)", async ({
    browser,
  }) => {
    const email = uniqueEmail("flood");
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = Date.now();
    let accepted = 0;
    let limited = false;
    // Attempts until the refusal: 3 at once, plus one for every 20 s the attempts themselves took.
    for (let i = 0; i < 10 && !limited; i++) {
      // The first sign-up signs the new account in: each attempt starts signed out.
      await context.clearCookies();
      await page.goto("/en/sign-up");
      await page.getByLabel("Name").fill("Flo Flood");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(`a-long-password-${i}`);
      await page.getByRole("button", { name: "Create account" }).click();
      // The dashboard's banner (the new account, signed in), the sign-in page's notice (the address is
      // taken), or the form's error.
      await expect(
        page.locator("main").getByRole("status").or(page.locator("form").getByRole("alert")).first(),
      ).toBeVisible();
      limited =
        (await page
          .locator("form")
          .getByRole("alert")
          .filter({ hasText: /too many/i })
          .count()) > 0;
      if (!limited) {
        expect(["/en/dashboard", "/en/sign-in"]).toContain(new URL(page.url()).pathname);
        accepted += 1;
      }
    }
    const refills = Math.floor((Date.now() - started) / 20_000);
    expect(limited).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(accepted).toBeLessThanOrEqual(3 + refills);
    await context.close();
  });
});

test.describe("host-independent sign-in", () => {
  test("signing in at 127.0.0.1 stays on 127.0.0.1, signed in", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${origin.port}` });
    const page = await context.newPage();
    await page.goto("/en/sign-in");
    await page.getByLabel("E-mail").fill("user@example.com");
    await page.getByLabel("Password").fill("user-demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`http://127.0.0.1:${origin.port}/en/dashboard`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Please sign in")).toHaveCount(0);
    await context.close();
  });
});
