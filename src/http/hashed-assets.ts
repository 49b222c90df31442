import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { staticAnswer } from "./static-answer.js";

/** A static file of a page: `<name>.<extension>` in the page's folder, served with `type`. */
interface AssetFile {
  name: string;
  extension: string;
  type: string;
}

/** An address that names its content's hash never changes what it answers. */
const IMMUTABLE = "public, max-age=31536000, immutable";

export interface HashedAssets<R extends string> {
  /** The addresses a page names its files by, by role. */
  hrefs: Record<R, string>;
  /** GET <mount>/:file; null for a file that is not one of them. */
  answer: (file: string, request: Request) => Promise<Response> | null;
}

/**
 * The folder `folder` (relative to the project) under the first folder above this module that has
 * it: the checkout for tsx, for `npm start`'s bundles (in its `.data/bundles/`) and for `dist/`,
 * and the image's WORKDIR for its bundles (the Dockerfile copies them).
 */
function staticFolder(folder: string, probe: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, folder, probe))) return join(dir, folder);
    if (dir === dirname(dir)) throw new Error(`the static files of ${folder} are in no folder above ${here}`);
  }
}

/**
 * A page's static files (`folder`), read once when the page is mounted: a missing file stops the
 * API from starting rather than serving pages without them. Each is served under `mount` at an
 * address that names the hash of its content (`/pay/assets/pay.<hash>.css`), cached for a year as
 * immutable, so a page names the files it was made with and a browser asks for a file once per
 * version. Any other version's address, or none (`/pay/assets/pay.css`), answers the current
 * file, revalidated at each use (`no-cache`): a page made by a process of the previous version
 * still gets a stylesheet during a deployment. Compressed and answered 304 by ETag as
 * http/static-answer.ts does.
 */
export function loadHashedAssets<R extends string>(folder: string, mount: string, files: Record<R, AssetFile>): HashedAssets<R> {
  const entries = Object.entries(files) as [R, AssetFile][];
  const found = staticFolder(folder, `${entries[0]![1].name}.${entries[0]![1].extension}`);
  const hrefs = {} as Record<R, string>;
  const answers = new Map<string, { hash: string; answer: ReturnType<typeof staticAnswer> }>();
  for (const [role, { name, extension, type }] of entries) {
    const body = readFileSync(join(found, `${name}.${extension}`));
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
    hrefs[role] = `${mount}/${name}.${hash}.${extension}`;
    answers.set(`${name}.${extension}`, { hash, answer: staticAnswer(() => ({ body, type }), "no-cache") });
  }
  return {
    hrefs,
    answer: (file, request) => {
      const [, name, hash, extension] = /^([a-z-]+)(?:\.([0-9a-f]+))?\.([a-z]+)$/.exec(file) ?? [];
      const asset = answers.get(`${name}.${extension}`);
      if (!asset) return null;
      return asset.answer(request, hash === asset.hash ? IMMUTABLE : undefined);
    },
  };
}
