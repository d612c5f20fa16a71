/** Series colours of the dashboard charts (readable on light and dark backgrounds, and in print). */
export const PALETTE = ["#2563eb", "#16a34a", "#dc2626", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

/** Fixed colours for series whose meaning people read from the colour. */
export const SERIES_COLOURS: Record<string, string> = {
  positive: "#16a34a",
  neutral: "#9ca3af",
  negative: "#dc2626",
  critical: "#7f1d1d",
  high: "#dc2626",
  medium: "#d97706",
  low: "#facc15",
};

export const colourOf = (key: string, index: number) => SERIES_COLOURS[key] ?? PALETTE[index % PALETTE.length]!;
