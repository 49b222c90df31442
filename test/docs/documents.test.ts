import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseEnv } from "node:util";
import type { Tokens } from "marked";
import { ESLint } from "eslint";
import { getFileInfo } from "prettier";
import { describe, expect, it } from "vitest";
import { processEnvs } from "../../src/env.js";
import { codeBlocks, codeSpans, documents, root, tokensOf, walk } from "./markdown.js";

/** Whether tsc's project (tsconfig.json's `include`) takes in the file at `path`, from the root. */
function tsconfigIncludes(path: string): boolean {
  const { include } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "")) as {
    include: string[];
  };
  return include.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/** The anchors a markdown renderer gives the file's headings (GitHub's rule: lower case, no punctuation, spaces to hyphens, repeats numbered). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const token of tokensOf(file)) {
    if (token.type !== "heading") continue;
    const slug = (token as Tokens.Heading).text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The README's configuration table as rendered: variable → the processes its "used by" cell names. */
function configurationTable(): Map<string, Set<string>> {
  const tokens = tokensOf("README.md");
  const heading = tokens.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).text === "Configuration");
  const next = tokens.slice(heading + 1).find((t) => t.type !== "space" && t.type !== "paragraph");
  expect(next?.type, "the Configuration section's first block is a table").toBe("table");
  const table = next as Tokens.Table;
  const column = (name: string) => table.header.findIndex((cell) => cell.text.toLowerCase() === name);
  const [variable, usedBy] = [column("variable"), column("used by")];
  const all = Object.keys(processEnvs);
  return new Map(
    table.rows.map((row) => [
      row[variable]!.text.replaceAll("`", ""),
      new Set(
        row[usedBy]!.text.trim() === "all"
          ? all
          : row[usedBy]!.text.split(/,|\band\b/)
              .map((name) => name.trim())
              .filter(Boolean),
      ),
    ]),
  );
}

describe("the documentation", () => {
  it("lists every variable in one rendered configuration table, with the processes that truly read it", () => {
    const expected = new Map<string, Set<string>>();
    for (const [process, schema] of Object.entries(processEnvs)) {
      for (const name of Object.keys(schema.shape)) expected.set(name, (expected.get(name) ?? new Set()).add(process));
    }
    const table = configurationTable();
    expect([...table.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, processes] of expected) expect([name, [...table.get(name)!].sort()]).toEqual([name, [...processes].sort()]);
  });

  it("gives every variable in .env.example, and no other", () => {
    const names = readFileSync(join(root, ".env.example"), "utf8")
      .split("\n")
      .map((line) => /^#?\s*([A-Z][A-Z0-9_]+)=/.exec(line)?.[1])
      .filter(Boolean);
    const expected = new Set(Object.values(processEnvs).flatMap((schema) => Object.keys(schema.shape)));
    expect([...names].sort()).toEqual([...expected].sort());
  });

  it("gives in .env.example the defaults, in a form .env accepts", () => {
    const example = parseEnv(readFileSync(join(root, ".env.example"), "utf8"));
    for (const schema of Object.values(processEnvs)) expect(schema.parse(example)).toEqual(schema.parse({}));
  });

  it("links only to files inside the repository, local addresses and example hosts", () => {
    const outside: string[] = [];
    for (const file of documents) {
      walk(tokensOf(file), (token) => {
        if (token.type !== "link" && token.type !== "image") return;
        const href = (token as Tokens.Link).href;
        if (href.startsWith("#")) return;
        if (/^[a-z]+:/i.test(href)) {
          const { hostname } = new URL(href);
          if (!["localhost", "127.0.0.1"].includes(hostname) && !/(^|\.)example$|\.example\.(com|org)$/.test(hostname))
            outside.push(`${file}: ${href}`);
          return;
        }
        const target = resolve(root, dirname(file), href.split("#")[0]!);
        if (relative(root, target).startsWith("..") || !existsSync(target)) outside.push(`${file}: ${href}`);
      });
    }
    expect(outside).toEqual([]);
  });

  it("links only to headings that exist", () => {
    const missing: string[] = [];
    for (const file of documents) {
      walk(tokensOf(file), (token) => {
        if (token.type !== "link") return;
        const href = (token as Tokens.Link).href;
        if (/^[a-z]+:/i.test(href) || !href.includes("#")) return;
        const [path, anchor] = href.split("#") as [string, string];
        const target = path ? relative(root, resolve(root, dirname(file), path)) : file;
        if (target.endsWith(".md") && !anchorsOf(target).has(anchor)) missing.push(`${file}: ${href}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it("explains in the architecture each package package.json overrides, and no other", () => {
    const names = (overrides: Record<string, unknown>): string[] =>
      Object.entries(overrides).flatMap(([name, value]) => [
        ...(name === "." ? [] : [name.replace(/(.)@.*$/, "$1")]),
        ...(typeof value === "object" && value ? names(value as Record<string, unknown>) : []),
      ]);
    const overridden = new Set(names(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).overrides ?? {}));
    const tokens = tokensOf("docs/architecture.md");
    const start = tokens.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).text === "Overrides in package.json");
    expect(start, "docs/architecture.md has the section").toBeGreaterThan(-1);
    const depth = (tokens[start] as Tokens.Heading).depth;
    const end = tokens.findIndex((t, i) => i > start && t.type === "heading" && (t as Tokens.Heading).depth <= depth);
    // Each item of the section's lists starts with the name of the package it explains, in code.
    const explained = tokens
      .slice(start + 1, end === -1 ? undefined : end)
      .flatMap((t) => (t.type === "list" ? (t as Tokens.List).items : []))
      .map((item) => {
        const first = (item.tokens[0] as Tokens.Text | undefined)?.tokens?.[0];
        return first?.type === "codespan" ? (first as Tokens.Codespan).text : `(an item without a name first: ${item.text})`;
      });
    expect(explained.sort(), "the list in docs/architecture.md against the overrides in package.json").toEqual(
      [...overridden].sort(),
    );
  });

  it("has the reader make files only where git, Prettier and ESLint do not look", async () => {
    // What a document tells the reader to make inside the repository: a file to save (`save … as
    // `path``), a copy (`cp A B`), and in shell examples a folder, a redirect's target or an -out file.
    const made = new Set<string>();
    for (const { text } of codeSpans()) {
      const copy = /^cp \S+ (\S+)$/.exec(text);
      if (copy) made.add(copy[1]!);
    }
    for (const file of documents) {
      const prose = readFileSync(join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, path] of prose.matchAll(/\bsave [^`]*? as `([^`]+)`/g)) made.add(path!);
    }
    for (const { lang, text } of codeBlocks())
      if (["sh", "bash", "shell"].includes(lang))
        for (const [, dir, path] of text.matchAll(/(?:mkdir -p ([\w./-]+))|(?:(?:^|\s)> ?|-out )([\w./-]+)/gm))
          made.add(dir ? `${dir}/` : path!);
    const inside = [...made].filter((path) => !/^([/~$]|\/dev\/)/.test(path));

    const eslint = new ESLint({ cwd: root });
    const looked: Record<string, unknown>[] = [];
    for (const path of inside) {
      const git = spawnSync("git", ["check-ignore", "-q", path], { cwd: root }).status === 0;
      if (path.endsWith("/")) {
        if (!git) looked.push({ path, git });
        continue;
      }
      const prettier = await getFileInfo(join(root, path), {
        ignorePath: [".gitignore", ".prettierignore"].map((f) => join(root, f)),
      });
      const linted = /\.[cm]?[jt]s$/.test(path) && !(await eslint.isPathIgnored(join(root, path)));
      const typeChecked = /\.[cm]?[jt]s$/.test(path) && tsconfigIncludes(path);
      if (!git || !(prettier.ignored || prettier.inferredParser === null) || linted || typeChecked)
        looked.push({ path, git, prettier: prettier.ignored, linted, typeChecked });
    }
    expect(looked).toEqual([]);
    // The webhook receiver of the README is among them.
    expect(inside).toContain(".data/receiver.mjs");
  });

  it("addresses the API in runnable examples at the port PORT names, never a fixed one", () => {
    const fixed = codeBlocks()
      .filter(({ lang }) => ["sh", "bash", "shell", "js", "ts"].includes(lang))
      .flatMap(({ file, text }) => [...text.matchAll(/(localhost|127\.0\.0\.1):4000\b.*/g)].map((m) => `${file}: ${m[0]}`));
    expect(fixed).toEqual([]);
  });

  it("never points readers at the team's private notes", () => {
    for (const file of documents)
      expect([file, readFileSync(join(root, file), "utf8").includes("../shared")]).toEqual([file, false]);
  });
});
