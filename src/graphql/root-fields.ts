import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/** The operation a request runs: the named one, or the only one. */
export function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  return document.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
}

/** How many root fields an operation selects, counting every alias and the fields of its fragments. */
export function rootFieldCount(operation: OperationDefinitionNode, document: DocumentNode): number {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const count = (set: SelectionSetNode, seen: Set<string>): number =>
    set.selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + (selection.name.value.startsWith("__") ? 0 : 1);
      if (selection.kind === Kind.INLINE_FRAGMENT) return sum + count(selection.selectionSet, seen);
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) return sum;
      return sum + count(fragment, new Set(seen).add(name));
    }, 0);
  return count(operation.selectionSet, new Set());
}
