/**
 * Readiness of a process (GET /ready), apart from liveness (GET /health): whether it can take work
 * now. Each check is a named function answering true when that part is fine (database answering,
 * LISTEN connection up, queue loops running); once shutdown begins the process is draining and
 * answers not ready whatever the checks say, so a proxy or orchestrator stops sending it traffic
 * while it finishes what it holds. docs/observability.md, "Readiness and liveness".
 */
export class Readiness {
  private draining = false;

  constructor(private readonly checks: Record<string, () => boolean>) {}

  /** Shutdown began: not ready from now on (never undone; a process that drains then exits). */
  drain(): void {
    this.draining = true;
  }

  /** True once `drain()` was called. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** The document of GET /ready: `ready` and every check, `accepting` false while draining. */
  state(): { ready: boolean; checks: Record<string, boolean> } {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(this.checks)) {
      try {
        checks[name] = check() === true;
      } catch {
        checks[name] = false;
      }
    }
    checks.accepting = !this.draining;
    return { ready: Object.values(checks).every(Boolean), checks };
  }
}
