// A V8 CPU profile (`node --cpu-prof`) summarised: self time by area of the broker's work and the top
// functions by self time. Used by bench/broker-profile.ts.

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The area a function belongs to, from its script's path and name. */
export function areaOf(functionName: string, url: string): string {
  if (functionName === "(idle)") return "idle (waiting for I/O)";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8 and native (program)";
  if (url === "" && /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(functionName))
    return "socket writes (system calls)";
  if (url === "" && /^(randomFillSync|randomBytes)$/.test(functionName)) return "random ids";
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(url)) return "pg: encode, decode, pool";
  if (/node_modules\/ws\//.test(url)) return "ws: framing, sockets";
  if (/node_modules\/zod\//.test(url)) return "zod: frame validation";
  if (/node_modules\/(pino|thread-stream|sonic-boom)/.test(url)) return "logging";
  if (/node_modules\/prom-client\//.test(url)) return "metrics";
  if (/node_modules\/(@prisma|\.prisma)|\/generated\/prisma/.test(url)) return "prisma";
  if (/node_modules\/tweetnacl\//.test(url)) return "tweetnacl (signatures)";
  if (url.includes("node_modules/")) return "other packages";
  if (/\/broker\/|\/src\//.test(url)) return "broker's own code";
  if (url.startsWith("node:") || url === "") {
    if (/^(parse|stringify)$/.test(functionName)) return "JSON parse/stringify";
    if (/^node:(net|stream|internal\/stream|internal\/streams|internal\/net|_stream)/.test(url))
      return "node: net and streams";
    return url === "" ? "V8 and native (builtins)" : "node: other internals";
  }
  return "other";
}

/** Self time per area and the top functions, as printable lines. */
export function summariseProfile(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const area = areaOf(frame.functionName, frame.url);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(broker|src)\//, "$1/")}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const busy = total - (areas.get("idle (waiting for I/O)") ?? 0);
  const lines = [
    `\nbroker CPU profile: ${(total / 1e6).toFixed(1)} s sampled, ${((100 * busy) / total).toFixed(0)} % busy; self time by area:`,
  ];
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1])) lines.push(`  ${pct(us)}  ${area}`);
  lines.push(`top ${top} functions by self time:`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(us)}  ${name}`);
  return lines.join("\n");
}
