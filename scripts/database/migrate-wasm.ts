import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { ErrorCapturingSqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

export type { SchemaEngine } from "@prisma/schema-engine-wasm";

type SchemaEngineClass = typeof SchemaEngine;

declare global {
  // The wasm glue writes Rust panic messages here (Prisma's own CLI installs the same hook);
  // without it a panic surfaces as a bare "unreachable" RuntimeError.
  var PRISMA_WASM_PANIC_REGISTRY: { set_message(message: string): void } | undefined;
}

let lastPanic = "";
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
  set_message(message: string) {
    lastPanic = message;
  },
};

let engineClass: Promise<SchemaEngineClass> | undefined;

async function instantiate(): Promise<SchemaEngineClass> {
  // The package's entry does `import * as wasm from "./x.wasm"`, which Node 20 cannot load
  // (no ESM wasm integration), so compile the file ourselves and hand it to the bindgen glue.
  const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const compiled = await WebAssembly.compile(bytes);
  // The import namespace is the glue module itself, as a bundler would wire it, except for timers:
  // the engine arms 10 s timeouts (around its own pg_advisory_lock, for one) that it never clears
  // (the glue has no clearTimeout), which kept the process alive ~10 s after the work was done.
  // Unref'd they cannot; while an operation runs, our own open connections keep the loop alive.
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(imports).filter((key) => key.startsWith("__wbg_setTimeout_"))) {
    imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
  }
  const instance = await WebAssembly.instantiate(compiled, {
    "./schema_engine_bg.js": imports as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

/** Loads the WebAssembly schema engine once per process (the bindgen glue keeps module-level state). */
export function loadSchemaEngineClass(): Promise<SchemaEngineClass> {
  engineClass ??= instantiate().catch((error: unknown) => {
    engineClass = undefined;
    throw error;
  });
  return engineClass;
}

interface EngineLogLine {
  level?: string;
  fields?: { message?: string };
}

/** Starts an engine instance on the given adapter factory; engine warnings and errors go to `log`. */
export async function openSchemaEngine(
  adapterFactory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  options: { schemaFiles?: [string, string][]; log?: (msg: string) => void } = {},
): Promise<SchemaEngine> {
  const Engine = await loadSchemaEngineClass();
  const onLine = (line: string): void => {
    if (!options.log) return;
    let parsed: EngineLogLine;
    try {
      parsed = JSON.parse(line) as EngineLogLine;
    } catch {
      return;
    }
    // INFO/DEBUG lines are per-query tracing noise; only problems are worth surfacing.
    if (parsed.level === "WARN" || parsed.level === "ERROR") {
      options.log(`schema engine ${parsed.level.toLowerCase()}: ${parsed.fields?.message ?? line}`);
    }
  };
  try {
    // `datamodels` must be undefined or non-empty: the engine rejects an empty list.
    const files = options.schemaFiles && options.schemaFiles.length > 0 ? options.schemaFiles : undefined;
    return await Engine.new({ datamodels: files }, onLine, adapterFactory);
  } catch (error) {
    throw engineError("start", error);
  }
}

/** Turns what the engine throws (connector errors, user-facing P-codes, panics) into a readable Error. */
export function engineError(operation: string, error: unknown): Error {
  if (!(error instanceof Error)) return new Error(`schema engine ${operation} failed: ${String(error)}`);
  const code = (error as { code?: unknown }).code;
  const prefix = typeof code === "string" ? `${code}: ` : "";
  let message = error.message;
  if (error.name === "RuntimeError" && lastPanic) {
    message = `panic: ${lastPanic}`;
    lastPanic = "";
  }
  return new Error(`schema engine ${operation} failed: ${prefix}${message}`, { cause: error });
}
