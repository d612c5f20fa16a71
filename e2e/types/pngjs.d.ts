// The one part of pngjs 5 (no type definitions of its own) the browser tests use: decoding a PNG.
declare module "pngjs" {
  export const PNG: {
    sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } };
  };
}
