import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The id of the process listening on a TCP port of this machine (Linux: /proc/net/tcp and tcp6). */
export function pidListeningOn(port: number): number {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      // State 0A is LISTEN; the local address ends with the port in hex.
      if (!local || cols[3] !== "0A") continue;
      if (Number.parseInt(local.split(":")[1] ?? "", 16) === port && cols[9]) inodes.add(cols[9]);
    }
  }
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return Number(pid);
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  throw new Error(`no process listens on port ${port}`);
}

/** Resident memory of a process in bytes. */
export function residentBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
