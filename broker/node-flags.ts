/**
 * The V8 flags every broker process runs with (the start command, `npm run broker`, the image's entry
 * point, the tests' broker processes and the benchmarks): semi-spaces of up to 64 MB instead of Node's
 * 16. A send lives from its frame to its batch's commit, tens of milliseconds under load, so with the
 * default a scavenge came every ~75 ms at saturation and copied the sends in flight, twice, before
 * promoting them: 11 % of the broker's time. At 64 MB it is 4 %. The young generation grows to its
 * limit (two semi-spaces, 128 MB) only as the allocation rate needs (docs/performance.md, "A larger
 * young generation").
 */
export const BROKER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];
