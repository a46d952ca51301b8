import * as z from 'zod';
import {
  invalidLabelKeyReason,
  restrictedLabelReason,
  unsupportedLabelReason,
  unsupportedTenancyReason,
} from '../labels.js';
import { type CelRule, celRules, LABEL_KEY_PATTERN } from './crd-rules.js';
import { restrictedLabelRules } from './label-cel-rules.js';
import { lazySchema } from './lazy-schema.js';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'] as const;

const OPERATOR_HINTS: Record<string, string> = {
  equals: 'use In with a single value',
  equal: 'use In with a single value',
  notequals: 'use NotIn',
  notequal: 'use NotIn',
  exist: 'use Exists',
  notexists: 'use DoesNotExist',
  gte: 'write Gte',
  lte: 'write Lte',
  in: 'write In',
  notin: 'write NotIn',
  exists: 'write Exists',
  doesnotexist: 'write DoesNotExist',
  gt: 'write Gt',
  lt: 'write Lt',
};

/** A requirement value: Kubernetes wants strings; numbers written without quotes are accepted. */
const value = z
  .union([z.string().max(63, 'a requirement value is at most 63 characters (a label value)'), z.number()])
  .meta({ maxLength: 63 });

/** Options for requirement validation. */
export interface RequirementRules {
  /** Reject keys in restricted label domains (true for NodePools / Provisioners). */
  readonly restrictKeys: boolean;
  /** Whether `minValues` is part of the API version. */
  readonly allowMinValues: boolean;
}

type Ctx = z.core.$RefinementCtx;

function issue(ctx: Ctx, path: PropertyKey[], message: string, hint?: string): void {
  ctx.addIssue({ code: 'custom', message, path, params: hint === undefined ? undefined : { hint } });
}

interface RawRequirement {
  key: string;
  operator: string;
  values?: (string | number)[];
  minValues?: number;
}

function checkKey(r: RawRequirement, rules: RequirementRules, ctx: Ctx): void {
  const invalid = invalidLabelKeyReason(r.key);
  if (invalid !== undefined) issue(ctx, ['key'], invalid);
  const restricted = rules.restrictKeys ? restrictedLabelReason(r.key) : undefined;
  if (restricted !== undefined) {
    issue(ctx, ['key'], restricted, 'use a well-known label or a label of your own domain');
  }
  if (!rules.restrictKeys) return;
  const unsupported =
    unsupportedLabelReason(r.key) ??
    unsupportedTenancyReason(r.key, r.operator, (r.values ?? []).map(String));
  if (unsupported !== undefined) issue(ctx, ['key'], unsupported, 'remove this requirement');
}

function checkOperator(r: RawRequirement, ctx: Ctx): boolean {
  if ((OPERATORS as readonly string[]).includes(r.operator)) return true;
  const hint = OPERATOR_HINTS[r.operator.toLowerCase()];
  issue(ctx, ['operator'], `unknown operator "${r.operator}": expected one of ${OPERATORS.join(', ')}`, hint);
  return false;
}

function checkValues(r: RawRequirement, ctx: Ctx): void {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) issue(ctx, ['values'], `operator ${r.operator} needs at least one value`);
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        issue(ctx, ['values'], `operator ${r.operator} takes no values`, 'remove values, or use In / NotIn');
      }
      break;
    default:
      if (values.length !== 1 || !/^-?\d+$/.test(String(values[0]).trim())) {
        issue(
          ctx,
          ['values'],
          `operator ${r.operator} needs exactly one integer value, got ${JSON.stringify(values)}`,
          `e.g. values: ["4"]; combine a Gt and an Lt requirement for a range`,
        );
      }
  }
}

function checkMinValues(r: RawRequirement, rules: RequirementRules, ctx: Ctx): void {
  if (r.minValues === undefined) return;
  if (!rules.allowMinValues) {
    issue(
      ctx,
      ['minValues'],
      'minValues is not part of this API version',
      'use karpenter.sh/v1 or joiner.sh/v1',
    );
    return;
  }
  const count = r.values?.length ?? 0;
  if (r.operator === 'In' && r.minValues > count) {
    issue(
      ctx,
      ['minValues'],
      `minValues ${r.minValues} is more than the ${count} value(s) listed`,
      'list at least minValues values, or lower minValues',
    );
  }
}

/** The operator and value rules of {@link checkValues} and {@link checkMinValues}, as CEL on one requirement. */
function requirementCelRules(rules: RequirementRules): CelRule[] {
  return [
    {
      rule: "!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",
      message: 'operators In and NotIn need at least one value',
    },
    {
      rule: "!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",
      message: 'operators Exists and DoesNotExist take no values',
    },
    {
      rule: "!(self.operator in ['Gt', 'Lt', 'Gte', 'Lte']) || (has(self.values) && size(self.values) == 1 && string(self.values[0]).matches('^-?[0-9]+$'))",
      message: 'operators Gt, Lt, Gte and Lte need exactly one integer value',
    },
    rules.allowMinValues
      ? {
          rule: "!(self.operator == 'In' && has(self.minValues)) || (has(self.values) && size(self.values) >= self.minValues)",
          message: 'minValues is more than the number of values listed',
        }
      : { rule: '!has(self.minValues)', message: 'minValues is not part of this API version' },
  ];
}

/** Zod schema of one NodePool requirement with Karpenter's operator and value rules. */
export function requirementSchema(rules: RequirementRules) {
  return z
    .object({
      key: z
        .string()
        .min(1, 'key must not be empty')
        .meta({
          maxLength: 316,
          pattern: LABEL_KEY_PATTERN.source,
          ...(rules.restrictKeys ? celRules(...restrictedLabelRules('self')) : {}),
        }),
      operator: z.string().meta({ enum: [...OPERATORS] }),
      values: z.array(value).optional(),
      minValues: z.number().int().min(1).max(50).optional(),
    })
    .superRefine((r, ctx) => {
      checkKey(r, rules, ctx);
      if (checkOperator(r, ctx)) checkValues(r, ctx);
      checkMinValues(r, rules, ctx);
    })
    .meta(celRules(...requirementCelRules(rules)));
}

/** The requirement of v1 and v1beta1 NodePools (keys restricted, minValues allowed), built once for both. */
export const nodePoolRequirement = lazySchema(() =>
  requirementSchema({ restrictKeys: true, allowMinValues: true }),
);

/** At most this many requirements per NodePool (Karpenter's CRD: maxItems 100). */
export const MAX_REQUIREMENTS = 100;

/**
 * A NodePool's requirement list, at most {@link MAX_REQUIREMENTS} long (checked before the items,
 * so a huge list is refused without validating each one). The CRD generator reads the piped side.
 */
export function requirementList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .max(
      MAX_REQUIREMENTS,
      `at most ${MAX_REQUIREMENTS} requirements are allowed (as in Karpenter's NodePool)`,
    )
    .pipe(z.array(item).max(MAX_REQUIREMENTS));
}

/** The validated shape of a requirement before conversion. */
export type RequirementInput = z.infer<ReturnType<typeof requirementSchema>>;
