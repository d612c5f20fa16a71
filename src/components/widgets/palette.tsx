/**
 * Categorical colours of the dashboard charts (languages, stages, versions): readable on light and dark
 * backgrounds and in print, and none of them the green, red or amber that mean sentiment or severity.
 */
export const PALETTE = ["#2563eb", "#7c3aed", "#0891b2", "#db2777", "#64748b", "#4338ca", "#0e7490", "#a21caf"];

/** Fixed colours for series whose meaning people read from the colour. */
export const SERIES_COLOURS: Record<string, string> = {
  positive: "#16a34a",
  neutral: "#6b7280",
  negative: "#dc2626",
  mixed: "#d97706",
  critical: "#7f1d1d",
  high: "#dc2626",
  medium: "#d97706",
  low: "#facc15",
};

/** Tooltip and legend text in the page's own colour (series colours are too light for small text). */
export const TOOLTIP_ITEM_STYLE = { color: "var(--fg)" };
export const legendText = (text: string) => <span style={{ color: "var(--fg)" }}>{text}</span>;

/** A series' colour: its meaning's where it has one, else the next categorical colour. */
export const colourOf = (key: string, index: number) => SERIES_COLOURS[key] ?? PALETTE[index % PALETTE.length]!;
