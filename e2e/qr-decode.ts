// Reads a QR code back from a screenshot (PNG), as a phone's camera app would: pngjs for the pixels,
// jsQR for the code.
import jsQR from "jsqr";
import { PNG } from "pngjs";

/** The text and QR version of the code in a PNG image, or null when none is found. */
export function decodeQrPng(png: Buffer): { text: string; version: number } | null {
  const image = PNG.sync.read(png);
  const found = jsQR(
    new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    image.width,
    image.height,
  );
  return found ? { text: found.data, version: found.version } : null;
}
