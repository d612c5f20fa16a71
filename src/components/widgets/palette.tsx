/** Series colours of the dashboard charts (readable on light and dark backgrounds, and in print). */
export const PALETTE = ["#2563eb", "#16a34a", "#dc2626", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

/** Fixed colours for series whose meaning people read from the colour. */
export const SERIES_COLOURS: Record<string, string> = {
  positive: "#16a34a",
  neutral: "#6b7280",
  negative: "#dc2626",
  critical: "#7f1d1d",
  high: "#dc2626",
  medium: "#d97706",
  low: "#facc15",
};

/** Tooltip and legend text in the page's own colour (series colours are too light for small text). */
export const TOOLTIP_ITEM_STYLE = { color: "var(--fg)" };
export const legendText = (text: string) => <span style={{ color: "var(--fg)" }}>{text}</span>;

export const colourOf = (key: string, index: number) => SERIES_COLOURS[key] ?? PALETTE[index % PALETTE.length]!;
