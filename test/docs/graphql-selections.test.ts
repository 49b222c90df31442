/**
 * Every GraphQL selection the README and docs/*.md show is one a reader can paste: it validates
 * against the service's schema (src/graphql/schema.ts, as the API builds it).
 *
 * What counts as a selection:
 * - a ```graphql block, as a whole document;
 * - the `query` of a GraphQL call in another block (`-d '{"query": "subscription { … }"}'`);
 * - an inline code span that shows a selection set or argument values: an operation (`query …`,
 *   `mutation …`, `subscription …`, `{ … }`), a field, a field with arguments, a type or an inline
 *   fragment followed by ` {` (`paidBy { authCode }`, `webhookEndpointPing(id: "<id>") { … }`,
 *   `WebhookTestResult { delivered }`, `... on Error { code }`), or a field whose parentheses hold a
 *   `name:` (`webhookEvents(states: [EXHAUSTED])`). A span that starts with a type's name reads as a
 *   fragment on that type; one that starts with a field must validate on a type that has the field
 *   (a root type for the root fields).
 *
 * Not selections: a field named with its arguments' names only, as the tables list them
 * (`webhookEndpointPing(id)`), JSON (`{"token": "<JWT>"}`) and anything that is not GraphQL. So a
 * selection never elides with `…`: it shows fields that exist. Placeholders go in string literals
 * (`"<id>"`) and variables (`$n`), which a fragment may use without declaring.
 */
import { isCompositeType, NoUnusedFragmentsRule, parse, specifiedRules, validate, type GraphQLCompositeType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { codeBlocks, codeSpans } from "./markdown.js";

const OPERATION = /^(query|mutation|subscription)\b[^{]*\{|^\{\s/;
const SELECTION_SET = /^(\.\.\. on )?[A-Za-z_]\w*(\([^)]*\))?\s+\{/;
const ARGUMENT_VALUES = /^[A-Za-z_]\w*\([^)]*\b\w+\s*:/;

/** A fragment may stand alone here: it is what the reader puts in their own operation. */
const fragmentRules = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);

/** The problems of one document, or none. */
function problems(source: string, rules = specifiedRules): string[] {
  try {
    return validate(schema, parse(source), rules).map((error) => error.message);
  } catch (error) {
    return [(error as Error).message];
  }
}

const composite = Object.values(schema.getTypeMap()).filter(
  (type): type is GraphQLCompositeType => isCompositeType(type) && !type.name.startsWith("__"),
);

/** What is wrong with a span that reads as a selection; none when some type accepts it. */
function spanProblems(span: string): string[] {
  if (OPERATION.test(span)) return problems(span);
  const name = /^(\.\.\. on )?(\w+)/.exec(span)![2]!;
  if (/^[A-Z]/.test(name) && !span.startsWith("...")) return problems(`fragment Shown on ${span}`, fragmentRules);
  // A field (or an inline fragment): valid on one of the types that could hold it, or the fewest problems it has on one.
  const holders = span.startsWith("...")
    ? composite
    : composite.filter((type) => "getFields" in type && name in type.getFields());
  if (holders.length === 0) return [`no type has a field "${name}"`];
  const tried = holders.map((type) => problems(`fragment Shown on ${type.name} { ${span} }`, fragmentRules));
  return tried.sort((a, b) => a.length - b.length)[0]!;
}

describe("the documents' GraphQL", () => {
  it("validates every ```graphql block against the schema", () => {
    const blocks = codeBlocks().filter((block) => block.lang === "graphql");
    expect(blocks.length).toBeGreaterThan(10);
    const failing = blocks.flatMap(({ file, text }) => problems(text).map((problem) => `${file}: ${problem}\n${text}`));
    expect(failing).toEqual([]);
  });

  it("validates the query of every GraphQL call a shell example sends", () => {
    const queries = codeBlocks()
      .filter((block) => block.lang === "sh")
      .flatMap(({ file, text }) =>
        [...text.matchAll(/"query":\s*("(?:[^"\\]|\\.)*")/g)].map((match) => ({ file, query: JSON.parse(match[1]!) as string })),
      );
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.flatMap(({ file, query }) => problems(query).map((problem) => `${file}: ${query}: ${problem}`))).toEqual([]);
  });

  it("validates every selection shown in prose, as a reader would paste it", () => {
    const shown = codeSpans().filter(
      ({ text }) => OPERATION.test(text) || SELECTION_SET.test(text) || ARGUMENT_VALUES.test(text),
    );
    expect(shown.length).toBeGreaterThan(10);
    const failing = shown.flatMap(({ file, text }) => spanProblems(text).map((problem) => `${file}: \`${text}\`: ${problem}`));
    expect(failing).toEqual([]);
  });
});
