import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLNamedType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";

const BUILT_IN = new Set(["String", "Int", "Float", "Boolean", "ID"]);

/** Everything GraphiQL's docs pane shows that has no description. */
function undocumented(type: GraphQLNamedType): string[] {
  const missing = type.description ? [] : [type.name];
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) {
      if (!field.description) missing.push(`${type.name}.${field.name}`);
      for (const arg of "args" in field ? field.args : []) {
        if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
  }
  if (isEnumType(type)) {
    for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe("GraphQL schema", () => {
  it("describes every public type, field, argument and enum value", () => {
    const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith("__") && !BUILT_IN.has(type.name));
    expect(types.flatMap(undocumented)).toEqual([]);
  });

  it("types every mutation's result as a union of its data and the errors", () => {
    for (const field of Object.values(schema.getMutationType()!.getFields())) {
      const result = field.type.toString().replace("!", "");
      const union = schema.getType(result);
      expect(isUnionType(union), field.name).toBe(true);
      expect(isUnionType(union) && union.getTypes().map((t) => t.name)).toContain("ValidationError");
    }
  });
});
