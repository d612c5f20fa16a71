/**
 * The V8 flags a broker process runs with (the start command and `npm run broker` through
 * processSpec, the image's entry point, the tests' `brokerProcess`, and the benchmarks' `startBroker`, which runs processSpec's line):
 * semi-spaces of up to 64 MB instead of Node's 16. A send lives from its frame until its batch is
 * stored and handed out (~100 ms at saturation), so with the default a scavenge came every ~75 ms and
 * copied the sends in flight, then promoted them: 11 % of the broker's time. At 64 MB it is 4 %. The
 * young generation grows to its limit (two semi-spaces, 128 MB) only as the allocation rate needs
 * (docs/performance.md, "A larger young generation"; docs/deploy.md, "Memory").
 */
export const BROKER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];
