export type { Sealer } from "../context";
