import { inject } from "vitest";

// Every integration test file talks to the run's own database.
process.env.DATABASE_URL = inject("databaseUrl");
// Test-only configuration of the web app (fixed values, never used outside the test run).
process.env.AUTH_SECRET ??= "integration-tests-auth-secret-0123456789abcdef";
process.env.SECRETS_KEYS ??= `ktest:${Buffer.alloc(32, 7).toString("base64")}`;
process.env.PUBLIC_BASE_URL ??= "https://mesh.example.test";
process.env.PUBLIC_BROKER_URL ??= "wss://broker.example.test";
// Cheaper password hashes for the many users the tests create; the product default is 17 (docs/security.md).
process.env.PASSWORD_SCRYPT_LOG2_N ??= "14";
// Each test file has its own rate-limit buckets in the shared database (as each file had its own
// process memory before the limits moved to PostgreSQL); tests of the sharing set their own scope.
process.env.RATE_LIMIT_SCOPE = `test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
