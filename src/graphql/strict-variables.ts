import {
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLError,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ValidationCode } from "../domain/errors.js";

/**
 * Names the contract's INVALID_* code of each field of an input type, or of each argument of a
 * field (as `extensions`): what a value of the wrong JSON type there answers. Unnamed: BAD_REQUEST.
 */
export const parameterCodes = (codes: Partial<Record<string, ValidationCode>>) => ({ parameterCodes: codes });

const codeIn = (holder: { extensions: Record<string, unknown> } | null | undefined, name: string): ValidationCode =>
  (holder?.extensions["parameterCodes"] as Partial<Record<string, ValidationCode>> | undefined)?.[name] ?? "BAD_REQUEST";

/** Where a value sits: the parameter it gives, and that parameter's code. */
type Position = { name: string; code: ValidationCode };
type Refusal = Position & { problem: string };

/** What an operation's variables must be, worked out once per parsed operation. */
interface Plan {
  variables: { name: string; type: GraphQLInputType; hasDefault: boolean; position: Position }[];
  /** An integer literal given for an ID, which graphql-js would turn into text. */
  literal: Refusal | null;
}

/**
 * Holds GraphQL variables to the contract's JSON types before the operation runs: String and ID
 * take a JSON string only (graphql-js would turn an integer ID into text), other scalars and enums
 * what they parse, input objects only their own fields, and null only where optional. A value of
 * any other type answers its parameter's INVALID_* code (from `parameterCodes`), HTTP 400, instead
 * of graphql-js's error without a code. Integer literals for an ID are refused alike.
 */
export function useStrictVariables(): Plugin {
  const plans = new WeakMap<OperationDefinitionNode, Plan>();
  const planFor = ({ schema, document, operationName }: ExecutionArgs) => {
    const operation = getOperationAST(document, operationName);
    if (!operation) return null;
    if (!plans.has(operation)) plans.set(operation, planOf(schema, document, operation));
    return plans.get(operation)!;
  };
  const guard = ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution: (result: object) => void;
  }) => {
    const plan = planFor(args);
    const refusal = plan && variableRefusal(plan, args.variableValues ?? {});
    if (!refusal) return;
    const { name, code, problem } = refusal;
    setResultAndStopExecution({
      errors: [new GraphQLError(`${name} ${problem}`, { extensions: { code, http: { status: 400 } } })],
    });
  };
  return { onExecute: guard, onSubscribe: guard };
}

function variableRefusal(plan: Plan, values: Record<string, unknown>): Refusal | null {
  if (plan.literal) return plan.literal;
  for (const { name, type, hasDefault, position } of plan.variables) {
    const value = values[name];
    if (value === undefined && hasDefault) continue;
    const problem = problemOf(type, value, position);
    if (problem) return problem;
  }
  return null;
}

/** Why `value` is not of `type` in the contract's terms, if it is not. */
function problemOf(type: GraphQLInputType, value: unknown, position: Position): Refusal | null {
  if (value === undefined || value === null) return isNonNullType(type) ? { ...position, problem: "is required" } : null;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const problem = problemOf(nullable.ofType, item, position);
      if (problem) return problem;
    }
    return null;
  }
  if (isInputObjectType(nullable)) {
    if (typeof value !== "object" || Array.isArray(value)) return { ...position, problem: "must be an input object" };
    const fields = nullable.getFields();
    const unknown = Object.keys(value).find((key) => !(key in fields));
    if (unknown !== undefined) return { ...position, problem: `has no field ${JSON.stringify(unknown)}` };
    for (const field of Object.values(fields)) {
      const given = (value as Record<string, unknown>)[field.name];
      if (given === undefined && field.defaultValue !== undefined) continue;
      const problem = problemOf(field.type, given, { name: field.name, code: codeIn(nullable, field.name) });
      if (problem) return problem;
    }
    return null;
  }
  if (nullable.name === "String" || nullable.name === "ID")
    return typeof value === "string" ? null : { ...position, problem: "must be a JSON string" };
  try {
    if (nullable.parseValue(value) !== undefined) return null;
  } catch {
    // Refused below.
  }
  return { ...position, problem: `must be of type ${nullable.name}` };
}

/** The variables of the operation (and the fragments it spreads), each with the first parameter it gives. */
function planOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Plan {
  const typeInfo = new TypeInfo(schema);
  const positions: Position[] = [];
  const usages = new Map<string, Position>();
  let literal: Refusal | null = null;
  const here = (): Position => positions.at(-1) ?? { name: "argument", code: "BAD_REQUEST" };
  const visitor = visitWithTypeInfo(typeInfo, {
    Argument: {
      enter: (node) => void positions.push({ name: node.name.value, code: codeIn(typeInfo.getFieldDef(), node.name.value) }),
      leave: () => void positions.pop(),
    },
    ObjectField: {
      enter: (node) => {
        const parent = getNamedType(typeInfo.getParentInputType());
        positions.push({
          name: node.name.value,
          code: isInputObjectType(parent) ? codeIn(parent, node.name.value) : "BAD_REQUEST",
        });
      },
      leave: () => void positions.pop(),
    },
    Variable: (node, _key, parent) => {
      if ((parent as ASTNode | undefined)?.kind === Kind.VARIABLE_DEFINITION) return;
      if (!usages.has(node.name.value)) usages.set(node.name.value, here());
    },
    IntValue: () => {
      if (getNamedType(typeInfo.getInputType())?.name === "ID")
        literal ??= { ...here(), problem: "must be a string, not an integer" };
    },
  });
  for (const definition of [operation, ...fragmentsOf(document, operation)]) visit(definition, visitor);

  const variables = (operation.variableDefinitions ?? []).flatMap((definition) => {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type || !(isLeafType(getNamedType(type)) || isInputObjectType(getNamedType(type)))) return [];
    const name = definition.variable.name.value;
    const position = usages.get(name) ?? { name: `$${name}`, code: "BAD_REQUEST" as const };
    return [{ name, type, hasDefault: definition.defaultValue !== undefined, position }];
  });
  return { variables, literal };
}

/** The fragment definitions an operation spreads, directly or through other fragments. */
function fragmentsOf(document: DocumentNode, operation: OperationDefinitionNode): FragmentDefinitionNode[] {
  const byName = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const found = new Map<string, FragmentDefinitionNode>();
  const collect = (node: ASTNode) =>
    visit(node, {
      FragmentSpread: (spread) => {
        const fragment = byName.get(spread.name.value);
        if (!fragment || found.has(fragment.name.value)) return;
        found.set(fragment.name.value, fragment);
        collect(fragment);
      },
    });
  collect(operation);
  return [...found.values()];
}
