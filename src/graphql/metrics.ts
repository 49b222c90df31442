import { createCounter, createHistogram, usePrometheus, type FillLabelsFnParams } from "@graphql-yoga/plugin-prometheus";
import { metricsRegistry } from "../transport/metrics.js";

/**
 * Operation names kept as label values. A caller names its operations as it likes, so past this
 * many distinct names the rest count together as OTHER_OPERATIONS: each name is a series of every
 * metric below, kept for the life of the process.
 */
export const OPERATION_NAMES_KEPT = 100;

/** Not a GraphQL name, so no operation of that name is mistaken for the rest. */
export const OTHER_OPERATIONS = "(other)";

/**
 * The first OPERATION_NAMES_KEPT operation names this process has seen, each as itself; any other
 * as OTHER_OPERATIONS. One set per process, as the registry the series live in is one per process
 * (however many GraphQL handlers it makes).
 */
const kept = new Set<string>();
function operationNameLabel(name = "Anonymous"): string {
  if (kept.has(name)) return name;
  if (kept.size >= OPERATION_NAMES_KEPT) return OTHER_OPERATIONS;
  kept.add(name);
  return name;
}

/** Operations, errors and execution time by operation name and type, in the service's registry. */
export function useGraphQLMetrics() {
  const labelsOf = (params: FillLabelsFnParams): Record<"operationName" | "operationType", string> =>
    // An operation that did not parse has no type: the label is left out, as prom-client allows.
    ({ operationName: operationNameLabel(params.operationName), operationType: params.operationType! });
  const registry = metricsRegistry;
  return usePrometheus({
    registry,
    endpoint: false,
    metrics: {
      graphql_envelop_request: createCounter({
        registry,
        counter: {
          name: "payreq_graphql_operations_total",
          help: "GraphQL operations executed, by operation name and type.",
          labelNames: ["operationName", "operationType"],
        },
        fillLabelsFn: labelsOf,
      }),
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: "payreq_graphql_errors_total",
          help: "Errors of GraphQL operations, by operation name and type and the phase that reported them.",
          labelNames: ["operationName", "operationType", "phase"],
        },
        fillLabelsFn: (params) => ({ ...labelsOf(params), phase: params.errorPhase }),
      }),
      graphql_envelop_phase_execute: createHistogram({
        registry,
        histogram: {
          name: "payreq_graphql_execute_duration_seconds",
          help: "Time GraphQL operations spent executing, by operation name and type.",
          labelNames: ["operationName", "operationType"],
        },
        fillLabelsFn: labelsOf,
      }),
      graphql_envelop_request_duration: false,
      graphql_envelop_request_time_summary: false,
      graphql_envelop_phase_parse: false,
      graphql_envelop_phase_validate: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
      graphql_envelop_execute_resolver: false,
      graphql_yoga_http_duration: false,
    },
  });
}
