/** How often the live page asks for the mesh's state (the spec's value), in a module of its own so tests read it without the page. */
export const LIVE_POLL_MS = 4000;
