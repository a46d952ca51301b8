import * as z from 'zod';
import { parseQuantity } from '../../quantity.js';
import { scheduleProblem } from '../cron.js';
import { isDuration } from '../duration.js';
import {
  invalidLabelKeyReason,
  invalidLabelValueReason,
  restrictedLabelReason,
  unsupportedLabelReason,
  unsupportedTenancyReason,
} from '../labels.js';
import {
  CRON_PATTERN,
  celRules,
  DURATION_PATTERN,
  FINITE_DURATION_PATTERN,
  intOrString,
  LABEL_VALUE,
  NON_NEGATIVE_QUANTITY,
} from './crd-rules.js';
import { restrictedLabelMapRules } from './label-cel-rules.js';

type Ctx = z.core.$RefinementCtx;

/** Adds a custom issue with an optional hint (read back by the diagnostics mapper). */
export function addIssue(ctx: Ctx, message: string, path: PropertyKey[] = [], hint?: string): void {
  ctx.addIssue({ code: 'custom', message, path, params: hint === undefined ? undefined : { hint } });
}

/** A Kubernetes quantity written as a string or a number. */
export const quantity = z
  .union([z.string(), z.number()])
  .superRefine((v, ctx) => {
    let value: number;
    try {
      value = parseQuantity(v);
    } catch (e) {
      addIssue(ctx, (e as Error).message);
      return;
    }
    if (value < 0) addIssue(ctx, `quantity ${JSON.stringify(v)} must not be negative`);
    else if (value > MAX_QUANTITY)
      addIssue(ctx, `quantity ${JSON.stringify(v)} is larger than Kubernetes allows (about 9.2e18)`);
  })
  .meta({ ...intOrString(NON_NEGATIVE_QUANTITY), minimum: 0 });

/** The largest quantity Kubernetes stores (2^63 - 1). */
const MAX_QUANTITY = 2 ** 63 - 1;

/** A Karpenter duration: Go duration syntax, seconds as a number, or `Never`. */
export const duration = z
  .union([z.string(), z.number()])
  .superRefine((v, ctx) => {
    if (!isDuration(v)) {
      addIssue(
        ctx,
        `invalid duration ${JSON.stringify(v)}`,
        [],
        'use Go duration syntax such as "30s", "720h", "1h30m", or "Never"',
      );
    }
  })
  .meta({ ...intOrString(DURATION_PATTERN), minimum: 0 });

/** Object metadata: only the name is checked; other metadata fields are accepted as they are. */
export const metadata = z.looseObject({
  name: z.string().min(1, 'metadata.name must not be empty'),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** A string map (labels, annotations, tags). */
export const stringMap = z.record(z.string(), z.string());

/**
 * A refinement refusing a map of more than `limit` entries (the CRD says the same with
 * `maxProperties`, which bounds the cost of the CEL rules that iterate over the map).
 */
export function atMostEntries(limit: number, what: string, hint: string) {
  return (map: Record<string, unknown>, ctx: Ctx): void => {
    const count = Object.keys(map).length;
    if (count > limit) addIssue(ctx, `at most ${limit} ${what} are allowed, got ${count}`, [], hint);
  };
}

/** Karpenter's limit on the labels of a NodePool's template (`maxProperties` in its CRD). */
export const MAX_NODE_LABELS = 100;

/** Node labels a NodePool may set: valid syntax, not in a restricted domain, at most 100. */
export const nodeLabels = stringMap
  .superRefine(atMostEntries(MAX_NODE_LABELS, 'labels', "as in Karpenter's NodePool"))
  .superRefine((labels, ctx) => {
    for (const [key, value] of Object.entries(labels)) {
      const reason =
        invalidLabelKeyReason(key) ??
        restrictedLabelReason(key) ??
        unsupportedLabelReason(key) ??
        unsupportedTenancyReason(key, 'In', [value]) ??
        invalidLabelValueReason(value);
      if (reason !== undefined) addIssue(ctx, reason, [key]);
    }
  })
  .meta({
    additionalProperties: LABEL_VALUE,
    maxProperties: MAX_NODE_LABELS,
    ...celRules(...restrictedLabelMapRules()),
  });

/** A taint as written in a NodePool. */
export const taint = z.object({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  timeAdded: z.string().optional(),
});

/** A taint written as an object or as `key=value:Effect`. */
export const taintOrString = z.union([
  taint,
  z.string().regex(/^[^=:\s]+(=[^:\s]*)?:(NoSchedule|PreferNoSchedule|NoExecute)$/, {
    message: 'expected a taint "key=value:Effect" (Effect is NoSchedule, PreferNoSchedule or NoExecute)',
  }),
]);

/** A subnet / security group / capacity reservation selector term. */
export const selectorTerm = z
  .object({
    tags: stringMap.optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    ownerID: z.string().optional(),
    instanceMatchCriteria: z.string().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.tags === undefined && t.id === undefined && t.name === undefined) {
      addIssue(ctx, 'selector term selects nothing', [], 'set tags, id or name');
    }
    if (t.id !== undefined && (t.tags !== undefined || t.name !== undefined)) {
      addIssue(ctx, '"id" is mutually exclusive with "tags" and "name"', [], 'use a separate term per id');
    }
  })
  .meta(
    celRules(
      {
        rule: 'has(self.tags) || has(self.id) || has(self.name)',
        message: 'selector term selects nothing: set tags, id or name',
      },
      {
        rule: '!has(self.id) || !(has(self.tags) || has(self.name))',
        message: '"id" is mutually exclusive with "tags" and "name"',
      },
    ),
  );

/** An AMI selector term. */
export const amiSelectorTerm = z
  .object({
    alias: z.string().meta({ pattern: '^[a-z0-9]+@[A-Za-z0-9.-]+$' }).optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    owner: z.string().optional(),
    tags: stringMap.optional(),
    ssmParameter: z.string().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.alias !== undefined && !/^[a-z0-9]+@[A-Za-z0-9.-]+$/.test(t.alias)) {
      addIssue(ctx, `invalid alias "${t.alias}"`, ['alias'], 'write family@version, e.g. al2023@latest');
    }
    if (Object.values(t).every((v) => v === undefined)) {
      addIssue(ctx, 'AMI selector term selects nothing', [], 'set alias, id, name, tags or ssmParameter');
    }
  })
  .meta(
    celRules({
      rule: 'has(self.alias) || has(self.id) || has(self.name) || has(self.owner) || has(self.tags) || has(self.ssmParameter)',
      message: 'AMI selector term selects nothing: set alias, id, name, tags or ssmParameter',
    }),
  );

/** Kubelet settings (v1 EC2NodeClass `kubelet`, v1beta1 NodePool `kubelet`, v1alpha5 `kubeletConfiguration`). */
export const kubelet = z.object({
  clusterDNS: z.array(z.string()).optional(),
  maxPods: z.number().int().min(0).optional(),
  podsPerCore: z.number().int().min(0).optional(),
  systemReserved: z.record(z.string(), quantity).optional(),
  kubeReserved: z.record(z.string(), quantity).optional(),
  evictionHard: z.record(z.string(), z.string()).optional(),
  evictionSoft: z.record(z.string(), z.string()).optional(),
  evictionSoftGracePeriod: z.record(z.string(), duration).optional(),
  evictionMaxPodGracePeriod: z.number().int().optional(),
  imageGCHighThresholdPercent: z.number().int().min(0).max(100).optional(),
  imageGCLowThresholdPercent: z.number().int().min(0).max(100).optional(),
  cpuCFSQuota: z.boolean().optional(),
});

/** An EBS block device mapping. */
export const blockDeviceMapping = z.object({
  deviceName: z.string().min(1),
  rootVolume: z.boolean().optional(),
  ebs: z
    .object({
      volumeSize: quantity.optional(),
      volumeType: z.enum(['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3']).optional(),
      iops: z.number().int().optional(),
      throughput: z.number().int().optional(),
      encrypted: z.boolean().optional(),
      kmsKeyID: z.string().optional(),
      deleteOnTermination: z.boolean().optional(),
      snapshotID: z.string().optional(),
      /** MiB/s a volume from a snapshot is initialized at (EC2 allows 100-300). */
      volumeInitializationRate: z.number().int().min(100).max(300).optional(),
    })
    .optional(),
});

/** EC2 instance metadata service options. */
export const metadataOptions = z.object({
  httpEndpoint: z.enum(['enabled', 'disabled']).optional(),
  httpProtocolIPv6: z.enum(['enabled', 'disabled']).optional(),
  httpPutResponseHopLimit: z.number().int().min(1).max(64).optional(),
  httpTokens: z.enum(['required', 'optional']).optional(),
});

/** The disruption reasons a budget can name (Karpenter v1). */
const BUDGET_REASONS = ['Underutilized', 'Empty', 'Drifted'] as const;

/** Karpenter's pattern for a budget duration: whole hours and/or minutes (Go may add a trailing `0s`). */
const BUDGET_DURATION = /^(([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?$/;

/** How long a scheduled budget stays active: whole hours and/or minutes, as Karpenter accepts. */
const budgetDuration = z
  .union([z.string(), z.number()])
  .superRefine((v, ctx) => {
    if (typeof v !== 'string' || !BUDGET_DURATION.test(v)) {
      addIssue(
        ctx,
        `invalid budget duration ${JSON.stringify(v)}`,
        [],
        'a budget lasts whole minutes or hours (cron has no seconds): write e.g. "10m", "8h" or "1h30m"',
      );
    }
  })
  .meta({ type: 'string', pattern: BUDGET_DURATION.source });

/** A budget's `nodes`: a count, or a percentage up to 100%. */
const BUDGET_NODES = /^((100|[0-9]{1,2})%|[0-9]+)$/;

/** A disruption budget (v1 and v1beta1). */
export const budget = z
  .object({
    nodes: z.union([z.string(), z.number()]).meta(intOrString(BUDGET_NODES)),
    schedule: z.string().meta({ pattern: CRON_PATTERN.source }).optional(),
    duration: budgetDuration.optional(),
    reasons: z
      .array(
        z.enum(BUDGET_REASONS, {
          error: (issue) =>
            `unknown reason ${JSON.stringify(issue.input)}: expected ${BUDGET_REASONS.join(', ')}`,
        }),
      )
      .optional(),
  })
  .superRefine((b, ctx) => {
    const nodes = String(b.nodes);
    if (/^[0-9]+%$/.test(nodes) && Number(nodes.slice(0, -1)) > 100) {
      addIssue(
        ctx,
        `nodes ${JSON.stringify(b.nodes)} is more than 100%`,
        ['nodes'],
        'a percentage is 0% to 100%',
      );
    } else if (!BUDGET_NODES.test(nodes)) {
      addIssue(
        ctx,
        `nodes ${JSON.stringify(b.nodes)} is neither a node count nor a percentage`,
        ['nodes'],
        'write e.g. "10%" or "3"',
      );
    }
    if ((b.schedule === undefined) !== (b.duration === undefined)) {
      addIssue(
        ctx,
        'schedule and duration must be set together',
        [b.schedule === undefined ? 'schedule' : 'duration'],
        'a budget with a cron schedule needs a duration, e.g. duration: 8h',
      );
    }
    const problem = b.schedule === undefined ? undefined : scheduleProblem(b.schedule);
    if (problem !== undefined) {
      addIssue(
        ctx,
        `invalid cron schedule ${JSON.stringify(b.schedule)}: ${problem}`,
        ['schedule'],
        'use 5 fields (minute hour day-of-month month day-of-week, in UTC) or a macro such as @daily',
      );
    }
  })
  .meta(
    celRules({
      rule: 'has(self.schedule) == has(self.duration)',
      message: "'schedule' must be set with 'duration'",
    }),
  );

/** A terminationGracePeriod: a duration, but not `Never` (Karpenter v1's pattern has no Never). */
export const terminationGracePeriod = duration
  .superRefine((v, ctx) => {
    if (v === 'Never') {
      addIssue(
        ctx,
        'terminationGracePeriod cannot be "Never"',
        [],
        'leave terminationGracePeriod out to wait for pods without limit',
      );
    }
  })
  .meta({ ...intOrString(FINITE_DURATION_PATTERN), minimum: 0 });

/** Resource limits: a non-negative quantity per resource name. */
export const limits = z.record(z.string(), quantity);
