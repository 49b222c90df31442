/**
 * The project's documents (README.md and docs/*.md) as a markdown renderer reads them, for the tests
 * that hold what they show to what the code does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Lexer, type Token, type Tokens } from "marked";

export const root = resolve(import.meta.dirname, "../..");

/** README.md and every docs/*.md, as paths from the repository's root. */
export const documents = ["README.md", ...readdirSync(join(root, "docs")).map((file) => `docs/${file}`)].filter((file) =>
  file.endsWith(".md"),
);

export const tokensOf = (file: string) => new Lexer({ gfm: true }).lex(readFileSync(join(root, file), "utf8"));

/** Visits every token, those inside paragraphs, lists and tables included. */
export function walk(tokens: Token[], visit: (token: Token) => void) {
  for (const token of tokens) {
    visit(token);
    const children = [
      ...("tokens" in token && token.tokens ? token.tokens : []),
      ...(token.type === "list" ? (token as Tokens.List).items : []),
      ...(token.type === "table"
        ? [...(token as Tokens.Table).header, ...(token as Tokens.Table).rows.flat()].flatMap((cell) => cell.tokens)
        : []),
    ];
    walk(children, visit);
  }
}

/** Every fenced code block of the documents, with its language (`sh`, `graphql`, `` for none). */
export function codeBlocks(): { file: string; lang: string; text: string }[] {
  const blocks: { file: string; lang: string; text: string }[] = [];
  for (const file of documents)
    walk(tokensOf(file), (token) => {
      if (token.type === "code")
        blocks.push({ file, lang: (token as Tokens.Code).lang ?? "", text: (token as Tokens.Code).text });
    });
  return blocks;
}

/** Every inline code span of the documents' prose, tables and lists. */
export function codeSpans(): { file: string; text: string }[] {
  const spans: { file: string; text: string }[] = [];
  for (const file of documents)
    walk(tokensOf(file), (token) => {
      if (token.type === "codespan") spans.push({ file, text: (token as Tokens.Codespan).text });
    });
  return spans;
}
