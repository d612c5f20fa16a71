import { describe, expect, it } from "vitest";
import { cellColours } from "./heatmap";

function luminance(rgb: number[]): number {
  const lin = rgb.map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
}

describe("heat-map cell colours", () => {
  it("keeps text at WCAG AA contrast (4.5:1) on every shade", () => {
    for (let i = 0; i <= 100; i++) {
      const { background, color } = cellColours(i / 100);
      const bg = luminance(background.match(/\d+/g)!.map(Number));
      const fg = color === "#fff" ? 1 : 0;
      const ratio = (Math.max(bg, fg) + 0.05) / (Math.min(bg, fg) + 0.05);
      expect(ratio, `share ${i}%`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
