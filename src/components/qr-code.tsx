"use client";

import QRCode from "qrcode";
import { useMemo } from "react";

/** A QR code drawn as one SVG path (no images, no HTML injection), for a link to scan with a phone. */
export function QrCode({ value, label, size = 192 }: { value: string; label: string; size?: number }) {
  const { path, count } = useMemo(() => {
    const modules = QRCode.create(value, { errorCorrectionLevel: "M" }).modules;
    let d = "";
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    }
    return { path: d, count: modules.size + 8 };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${count} ${count}`}
      shapeRendering="crispEdges"
    >
      <rect width={count} height={count} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
