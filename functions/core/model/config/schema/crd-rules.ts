/**
 * What a zod schema says to the CRD generator beyond its types (`functions/core/install/crd-schema`):
 * OpenAPI value checks and CEL rules (`x-kubernetes-validations`) attached with zod's `.meta()`,
 * next to the refinement that checks the same thing in joiner. The API server enforces them at
 * `kubectl apply`; joiner's own validation stays the reference and gives the longer hint.
 */

/** One CEL validation rule of a CRD: `self` is the value of the field the rule is attached to. */
export interface CelRule {
  readonly rule: string;
  readonly message: string;
}

/** Metadata for `.meta()`: the CEL rules the API server evaluates on this field. */
export function celRules(...rules: CelRule[]): { 'x-kubernetes-validations': CelRule[] } {
  return { 'x-kubernetes-validations': rules };
}

/**
 * Metadata for `.meta()` on a string-or-number field: in the CRD an int-or-string, with the
 * pattern the string form must match.
 */
export function intOrString(pattern: RegExp): { 'x-kubernetes-int-or-string': true; pattern: string } {
  return { 'x-kubernetes-int-or-string': true, pattern: pattern.source };
}

/**
 * Kubernetes' quantity syntax (as in Karpenter's `limits` schema) without the minus sign: the
 * amounts joiner reads (limits, reserved resources, volume sizes, overlay capacity) are never
 * negative.
 */
export const NON_NEGATIVE_QUANTITY =
  /^\+?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

/** A Karpenter duration as a string: Go duration syntax, whole seconds, or `Never`. */
export const DURATION_PATTERN = /^((([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|ms|s|m|h))+|[0-9]+|Never)$/;

/** A duration that may not be `Never` (terminationGracePeriod). */
export const FINITE_DURATION_PATTERN = /^((([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|ms|s|m|h))+|[0-9]+)$/;

/** A label value: at most 63 characters of Kubernetes' label value syntax. */
export const LABEL_VALUE = {
  type: 'string',
  maxLength: 63,
  pattern: '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$',
};

/** A label key (Karpenter's requirement key pattern): an optional DNS prefix, then a name. */
export const LABEL_KEY_PATTERN =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Karpenter's pattern of a budget's cron schedule: a macro or five fields. */
export const CRON_PATTERN =
  /^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$/;
