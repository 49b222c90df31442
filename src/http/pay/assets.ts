import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { staticAnswer } from "../static-answer.js";

/** Where the files are, from the project's folder (or the image's WORKDIR). */
const STATIC = join("src", "http", "pay", "static");

const FILES = {
  stylesheet: { name: "pay", extension: "css", type: "text/css; charset=utf-8" },
  script: { name: "pay", extension: "js", type: "text/javascript; charset=utf-8" },
} as const;

/** An address that names its content's hash never changes what it answers. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The addresses a page names its stylesheet and script by. */
export type AssetHrefs = Record<keyof typeof FILES, string>;

export interface PayAssets {
  hrefs: AssetHrefs;
  /** GET /pay/assets/:file; null for a file that is not one of them. */
  answer: (file: string, request: Request) => Promise<Response> | null;
}

/**
 * The folder of the pay page's static files: `src/http/pay/static` under the first folder above
 * this module that has it. That is the checkout for tsx, for `npm start`'s bundles (in its
 * `.data/bundles/`) and for `dist/`, and the image's WORKDIR for its bundles (the Dockerfile copies them).
 */
function staticFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, STATIC, "pay.css"))) return join(dir, STATIC);
    if (dir === dirname(dir)) throw new Error(`the pay page's static files (${STATIC}) are in no folder above ${here}`);
  }
}

/**
 * The pay page's stylesheet and script (src/http/pay/static/), read once when the page is mounted:
 * a missing file stops the API from starting rather than serving pages without them. Each is
 * served at an address that names the hash of its content (`/pay/assets/pay.<hash>.css`), cached
 * for a year as immutable, so a page names the files it was made with and a browser asks for a
 * file once per version. Any other version's address, or none (`/pay/assets/pay.css`), answers
 * the current file, revalidated at each use (`no-cache`): a page made by a process of the
 * previous version still gets a stylesheet during a deployment. Compressed and answered 304 by
 * ETag as http/static-answer.ts does.
 */
export function loadPayAssets(): PayAssets {
  const folder = staticFolder();
  const hrefs = {} as AssetHrefs;
  const answers = new Map<string, { hash: string; answer: ReturnType<typeof staticAnswer> }>();
  for (const [role, { name, extension, type }] of Object.entries(FILES) as [
    keyof typeof FILES,
    (typeof FILES)[keyof typeof FILES],
  ][]) {
    const body = readFileSync(join(folder, `${name}.${extension}`));
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
    hrefs[role] = `/pay/assets/${name}.${hash}.${extension}`;
    answers.set(`${name}.${extension}`, { hash, answer: staticAnswer(() => ({ body, type }), "no-cache") });
  }
  return {
    hrefs,
    answer: (file, request) => {
      const [, name, hash, extension] = /^([a-z]+)(?:\.([0-9a-f]+))?\.([a-z]+)$/.exec(file) ?? [];
      const found = answers.get(`${name}.${extension}`);
      if (!found) return null;
      return found.answer(request, hash === found.hash ? IMMUTABLE : undefined);
    },
  };
}
