import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";
import { retryUnlessAccessLost } from "./access-lost";

/** One QueryClient factory for the browser and for server components (dehydrated with superjson). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A refusal (NOT_FOUND, FORBIDDEN, UNAUTHORIZED) is not retried: only failures a retry may cure are.
      queries: { staleTime: 30_000, retry: retryUnlessAccessLost },
      dehydrate: {
        serializeData: superjson.serialize,
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
