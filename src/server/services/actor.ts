/** Who performs a use case: services take it explicitly and never read the request or session. */
export type Actor =
  | { kind: "user"; userId: string; isAdmin: boolean }
  | { kind: "apiKey"; apiKeyId: string; scopes: readonly string[] }
  | { kind: "system" };

export type UserActor = Extract<Actor, { kind: "user" }>;
