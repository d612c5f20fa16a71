// Shared by the home page (a server component) and its client parts: a plain module, since a value
// exported from a "use client" module reaches server components as a client reference, not a value.

/** How often the overview asks again (paused while the page is hidden, at once when shown again). */
export const HOME_POLL_MS = 15_000;
/** Meshes the overview shows; the dashboard lists them all. */
export const HOME_MESHES_SHOWN = 6;
