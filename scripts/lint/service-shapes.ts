/**
 * Counts the services of src/server/services by shape (issue 40): an exported function that a file
 * outside its domain folder imports is a service, and its shape is `(ctx, input)` when its first
 * parameter is typed `ServiceContext<…>`. Prints the count of each shape and the services not yet in
 * shape; `--check` exits 1 while any is left. Parsing only (no type-check), so it runs in about a second.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = process.cwd();
const SERVICES = path.join(root, "src/server/services");
const SCANNED = ["src", "broker", "scripts", "prisma", "bench", "e2e"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) return [];
    if (statSync(full).isDirectory()) return files(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.includes(`${path.sep}test${path.sep}`);
const domainOf = (file: string) => path.relative(SERVICES, file).split(path.sep)[0] ?? "";

function resolveImport(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(root, "src", spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

// Which names of which service files are imported by code outside their domain (tests do not count).
const usedOutside = new Map<string, Set<string>>();
for (const file of SCANNED.flatMap((d) => files(path.join(root, d)))) {
  if (isTest(file)) continue;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = resolveImport(file, statement.moduleSpecifier.text);
    if (!target || !target.startsWith(SERVICES + path.sep)) continue;
    const sameDomain = file.startsWith(SERVICES + path.sep) && domainOf(file) === domainOf(target);
    if (sameDomain) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const names = usedOutside.get(target) ?? new Set<string>();
    for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
    usedOutside.set(target, names);
  }
}

const shapes = new Map<string, string[]>();
for (const [file, names] of usedOutside) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !names.has(statement.name.text)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const first = statement.parameters[0];
    const fullType = first?.type ? first.type.getText(source) : "(none)";
    const typeText = fullType.replace(/<.*$/s, "");
    const returns = statement.type ? statement.type.getText(source) : "";
    const shape = returns.startsWith("ServiceContext")
      ? "context builder (returns a ServiceContext)"
      : typeText === "ServiceContext"
        ? "(ctx, input)"
        : /Transaction|\bTx\b/.test(typeText)
          ? "step of a caller's transaction (tx, …)"
          : /Db|Deps|Queries|Pool|db\b/.test(fullType)
            ? `to convert: first parameter ${typeText}`
            : "pure function (no database, no actor)";
    const list = shapes.get(shape) ?? [];
    list.push(`${path.relative(root, file)} ${statement.name.text}`);
    shapes.set(shape, list);
  }
}

const good = shapes.get("(ctx, input)")?.length ?? 0;
const total = [...shapes].reduce(
  (n, [shape, l]) => n + (shape === "(ctx, input)" || shape.startsWith("to convert") ? l.length : 0),
  0,
);
for (const [shape, list] of [...shapes].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`${String(list.length).padStart(4)}  ${shape}`);
  if (shape.startsWith("to convert") && process.argv.includes("--list"))
    for (const l of list.sort()) console.log(`        ${l}`);
}
console.log(
  `${good} of ${total} services (use cases that read the database or an actor) called from outside their folder take (ctx, input)`,
);
if (process.argv.includes("--check") && good < total) process.exitCode = 1;
