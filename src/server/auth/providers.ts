import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";

/**
 * OAuth/OIDC providers, each switched on only when its environment variables are set:
 * AUTH_GITHUB_ID/AUTH_GITHUB_SECRET, AUTH_GOOGLE_ID/AUTH_GOOGLE_SECRET, and a generic OpenID Connect
 * issuer with AUTH_OIDC_ISSUER/AUTH_OIDC_ID/AUTH_OIDC_SECRET (optional AUTH_OIDC_NAME).
 */
export function oauthProviders(env: Record<string, string | undefined> = process.env): Provider[] {
  const providers: Provider[] = [];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) {
    providers.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
  }
  if (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET) {
    providers.push(Google({ clientId: env.AUTH_GOOGLE_ID, clientSecret: env.AUTH_GOOGLE_SECRET }));
  }
  if (env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET) {
    providers.push({
      id: "oidc",
      name: env.AUTH_OIDC_NAME ?? "OpenID Connect",
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
  }
  return providers;
}

/** Id and display name of the enabled OAuth providers, for the sign-in page. */
export function enabledOAuthProviders(): { id: string; name: string }[] {
  return oauthProviders().map((p) => {
    const options = typeof p === "function" ? p() : p;
    return { id: options.id, name: options.name };
  });
}
