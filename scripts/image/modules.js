// @ts-check
/**
 * The packages the image keeps in node_modules: those its bundles (scripts/image/bundle.js) leave
 * out, each with what it needs at run time. Run by the Dockerfile's `dependencies` stage after
 * `npm ci --omit=dev`; it reads nothing but the installed tree and package-lock.json, and imports
 * Node alone, so that stage needs no other file of the project.
 *
 *   node scripts/image/modules.js <project> <target>   # copies <project>/node_modules/… to <target>/node_modules/…
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Left out of the bundles, and so kept as packages:
 * - `prisma6`, the migration step's Prisma CLI, run as a program of its own; and what its
 *   configuration (prisma/migrate/prisma.config.ts, loaded from source) imports: `@prisma/adapter-pg`;
 * - `pg`: the tracing SDK patches its classes through `require("pg")` (src/tracing-sdk.ts), which
 *   must find the copy the code uses, so every module takes it from node_modules;
 * - `msgpackr` (BullMQ's), for its optional native decoder, a compiled addon it finds beside itself.
 */
export const EXTERNAL = ["prisma6", "@prisma/adapter-pg", "pg", "msgpackr"];

/**
 * Where npm put what the package at `from` (a lockfile path, "" for the project) names `name`:
 * the nearest `node_modules/<name>` up its path, as Node resolves it.
 *
 * @param {Record<string, unknown>} packages the lockfile's `packages`
 * @param {string} from
 * @param {string} name
 */
function located(packages, from, name) {
  for (let dir = from; ; dir = dir.includes("/node_modules/") ? dir.slice(0, dir.lastIndexOf("/node_modules/")) : "") {
    const path = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (path in packages) return path;
    if (!dir) return undefined;
  }
}

/**
 * The lockfile paths of `roots` and of everything they depend on, transitively, as installed in
 * `project` (a package missing there was left out by `--omit`, so nothing loads it). Optional
 * peers (TypeScript for the Prisma CLI's configuration loader) are not followed; required peers are.
 *
 * @param {string} project
 * @param {string[]} roots
 * @returns {string[]}
 */
export function runtimeModules(project, roots = EXTERNAL) {
  /** @type {Record<string, {dependencies?: Record<string, string>, optionalDependencies?: Record<string, string>, peerDependencies?: Record<string, string>, peerDependenciesMeta?: Record<string, {optional?: boolean}>}>} */
  const packages = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")).packages;
  const found = new Set();
  const visit = (/** @type {string} */ from, /** @type {string} */ name, /** @type {boolean} */ required) => {
    const path = located(packages, from, name);
    if (!path || !existsSync(join(project, path))) {
      if (required) throw new Error(`${name} (needed by ${from || "the project"}) is not installed in ${project}`);
      return;
    }
    if (found.has(path)) return;
    found.add(path);
    const entry = packages[path] ?? {};
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(path, dependency, true);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(path, dependency, false);
    for (const peer of Object.keys(entry.peerDependencies ?? {}))
      if (!entry.peerDependenciesMeta?.[peer]?.optional) visit(path, peer, true);
  };
  for (const root of roots) visit("", root, true);
  return [...found].sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [project, target] = process.argv.slice(2);
  if (!project || !target) throw new Error("usage: node scripts/image/modules.js <project> <target>");
  const paths = runtimeModules(project);
  for (const path of paths) {
    // Without its own node_modules: what it needs from there is in `paths` too, and copied as such.
    const nested = join(project, path, "node_modules");
    cpSync(join(project, path), join(target, path), { recursive: true, filter: (source) => source !== nested });
  }
  console.log(`${paths.length} packages copied to ${join(target, "node_modules")}`);
}
