/**
 * The scenario file format of `joiner simulate` (documented in scenarios/README.md): what to
 * install, the steps to play and what must hold at the end. Validated with zod; the loader turns
 * issues into errors naming the file, the step and the field.
 */

import * as z from 'zod';
import { isDuration } from '../../core/model/config/duration.js';
import { KMS_KEY_STATES, LAUNCH_FAILURE_CODES } from '../ec2/launch-failures.js';
import {
  type CapacityReservationStep,
  capacityReservationSchema,
  capacityReservationStep,
} from './reservation-schema.js';

const duration = z.union([z.string(), z.number()]).refine((v) => isDuration(v) && v !== 'Never', {
  message: 'expected a duration such as "30s", "5m" or a number of seconds',
});

const labelMap = z.record(z.string(), z.string());

/** A manifest source: `{file}` (a path relative to the scenario file), or an inline Kubernetes object. */
export const manifestSourceSchema = z
  .object({
    file: z.string().min(1).optional(),
    apiVersion: z.string().min(1).optional(),
    kind: z.string().min(1).optional(),
    metadata: z
      .object({ name: z.string().min(1) })
      .loose()
      .optional(),
  })
  .loose()
  .superRefine((m, ctx) => {
    if (m.file !== undefined) {
      if (Object.keys(m).length > 1)
        ctx.addIssue({ code: 'custom', message: 'give either file or an inline manifest, not both' });
      return;
    }
    for (const field of ['apiVersion', 'kind', 'metadata'] as const) {
      if (m[field] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `an inline manifest needs ${field} (or give {file: path} instead)`,
        });
      }
    }
  });

const manifests = z.array(manifestSourceSchema).min(1);

const ceilingCount = z.number().int().nonnegative();

/** What must hold: checked by an `expect` step, and by the top-level `expect` at the end. */
export const expectationSchema = z
  .object({
    pods: z
      .object({ total: ceilingCount, running: ceilingCount, pending: ceilingCount })
      .partial()
      .strict()
      .optional(),
    nodes: z
      .object({
        count: ceilingCount,
        /** Exact count per instance type (types not listed must not appear). */
        instanceTypes: z.record(z.string(), ceilingCount),
        capacityTypes: z.partialRecord(z.enum(['spot', 'on-demand', 'reserved']), ceilingCount),
        /** Every node is in one of these zones. */
        zones: z.array(z.string()).min(1),
        /** Workload pods per node, any order (e.g. [7, 7, 6, 1]). */
        podsPerNode: z.array(ceilingCount),
        /** Max pods per instance type (the node's pod capacity). */
        maxPods: z.record(z.string(), ceilingCount),
        /** Taint keys no node may carry any more. */
        withoutTaints: z.array(z.string()),
      })
      .partial()
      .strict()
      .optional(),
    maxHourlyCost: z.number().positive().optional(),
    multusEnis: z
      .object({
        perNode: ceilingCount,
        /** Per zone, the Name tags of the subnets the Multus ENIs must be in. */
        subnets: z.record(z.string(), z.array(z.string()).min(1)),
        /** Names of the security groups every Multus ENI must have. */
        securityGroups: z.array(z.string()).min(1),
        deleteOnTermination: z.boolean(),
        noManageTag: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
    /** Startup taint key that must be removed only after the node's Multus pod was Ready. */
    taintRemovedAfterMultusReady: z.string().optional(),
    orphanedInstances: ceilingCount.optional(),
    /** PodDisruptionBudget violations the API server saw so far (exact count). */
    pdbViolations: ceilingCount.optional(),
    /** Workload pods Running when their node or instance vanished, so far (exact count). */
    podsLost: ceilingCount.optional(),
    /** Per NodePool, the most of its nodes disrupting at the same moment never exceeded this. */
    maxDisrupting: z.record(z.string(), ceilingCount).optional(),
    /** Per NodePool, exactly this many of its Node objects were removed so far. */
    nodesRemoved: z.record(z.string(), ceilingCount).optional(),
    /** Per NodePool, exactly this many of its Node objects ever existed so far. */
    nodesSeen: z.record(z.string(), ceilingCount).optional(),
    /** The matching pods Running at a `mark` step (or ever) are all still there. */
    podsStayed: z
      .object({
        selector: labelMap.refine((m) => Object.keys(m).length > 0, {
          message: 'give at least one label, e.g. {app: critical}',
        }),
        namespace: z.string().min(1).optional(),
        /** Name of a `mark` step played before (default: the latest mark, or every pod that ran). */
        since: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * What a wait can wait for: `nodes` (that many Node objects) and `nodesRemoved` (that many Node
 * objects of NodePools removed since the scenario started, Karpenter's
 * `EventuallyExpectDeletedNodeCount`) take a `count`.
 */
const waitFor = z.enum(['podsRunning', 'nodesReady', 'idle', 'nodes', 'nodesRemoved']);

/** The wait conditions that take a count. */
const COUNTED: ReadonlySet<string> = new Set(['nodes', 'nodesRemoved']);

/**
 * Scales a Deployment, or a static NodePool (Karpenter v1.8) through its scale subresource, as
 * `kubectl scale nodepool <name> --replicas=N` does.
 */
const scaleStep = z
  .object({
    deployment: z.string().min(1).optional(),
    nodePool: z.string().min(1).optional(),
    namespace: z.string().min(1).default('default'),
    replicas: ceilingCount,
  })
  .strict()
  .refine((s) => (s.deployment === undefined) !== (s.nodePool === undefined), {
    message: 'a scale step names either a deployment or a nodePool',
  });

const waitCondition = z
  .object({
    for: waitFor,
    /** Node objects to wait for (`for: nodes`), or removed Node objects (`for: nodesRemoved`). */
    count: ceilingCount.optional(),
    timeout: duration.default('10m'),
    /** A wait that times out fails the scenario unless it is optional (then it is only a note). */
    optional: z.boolean().default(false),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (COUNTED.has(w.for) && w.count === undefined)
      ctx.addIssue({ code: 'custom', path: ['count'], message: `a wait for ${w.for} needs a count` });
    if (!COUNTED.has(w.for) && w.count !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['count'],
        message: 'count is only for a wait for nodes or nodesRemoved',
      });
  });

/** A duration (let virtual time pass) or a condition to wait for. */
const waitStep = z.custom<unknown>().transform((value, ctx) => {
  const schema: z.ZodType = typeof value === 'object' && value !== null ? waitCondition : duration;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as z.infer<typeof duration> | z.infer<typeof waitCondition>;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
  return z.NEVER;
});

/** A JSON merge patch (RFC 7386) of one object. */
const patchStep = z
  .object({
    apiVersion: z.string().min(1),
    kind: z.string().min(1),
    name: z.string().min(1),
    /** For namespaced kinds; default `default`. */
    namespace: z.string().min(1).optional(),
    merge: z.record(z.string(), z.unknown()),
  })
  .strict();

/** Names the moment: the pods Running now are what a later `podsStayed` checks. */
const markStep = z.string().min(1);

const interruptStep = z
  .object({
    /**
     * Index among the live instances joiner launched, oldest first, `all` of them, or a node label
     * selector.
     */
    instance: z.union([ceilingCount, z.literal('all'), z.object({ selector: labelMap }).strict()]),
    kind: z.enum(['spot-interruption', 'rebalance', 'scheduled-change']).default('spot-interruption'),
  })
  .strict();

/**
 * The node's kubelet (or the EKS node monitoring agent) reports a condition: e.g. Ready False, or
 * AcceleratedHardwareReady False for a failing GPU. The node is chosen as `interrupt` chooses.
 */
const nodeConditionStep = z
  .object({
    node: z.union([ceilingCount, z.object({ selector: labelMap }).strict()]),
    type: z.string().min(1),
    status: z.enum(['True', 'False', 'Unknown']),
    reason: z.string().min(1).optional(),
    message: z.string().optional(),
  })
  .strict();

/**
 * `kubectl delete node X` (or `kubectl delete nodeclaim X` of the node's NodeClaim): the delete
 * goes through the API server, admission webhook included. The node is chosen as `interrupt` does.
 */
const deleteNodeStep = z
  .object({
    node: z.union([ceilingCount, z.object({ selector: labelMap }).strict()]),
    /** Which object is deleted: the Node (default) or its NodeClaim. */
    object: z.enum(['Node', 'NodeClaim']).default('Node'),
  })
  .strict();

const iceFault = z
  .object({
    /** No capacity left in this pool (InsufficientInstanceCapacity). */
    ice: z
      .object({
        instanceType: z.string().min(1),
        zone: z.string().min(1),
        capacityType: z.enum(['spot', 'on-demand']).default('on-demand'),
      })
      .strict(),
  })
  .strict();

const launchFailureFault = z
  .object({
    /** Instances launched into matching offerings are terminated during launch with this state reason. */
    launchFailure: z
      .object({
        code: z.enum(LAUNCH_FAILURE_CODES),
        instanceType: z.string().min(1).optional(),
        zone: z.string().min(1).optional(),
        capacityType: z.enum(['spot', 'on-demand']).optional(),
      })
      .strict(),
  })
  .strict();

const callFault = z
  .object({
    service: z.string().min(1),
    action: z.string().min(1).default('*'),
    error: z.string().min(1).optional(),
    message: z.string().optional(),
    latencyMs: z.number().nonnegative().optional(),
    times: z.number().int().positive().optional(),
    probability: z.number().min(0).max(1).optional(),
  })
  .strict()
  .refine((f) => f.error !== undefined || f.latencyMs !== undefined, {
    message: 'a fault needs an error, a latencyMs, or both',
  });

const faultStep = z.custom<unknown>().transform((value, ctx) => {
  const schema =
    typeof value === 'object' && value !== null && 'ice' in value
      ? iceFault
      : typeof value === 'object' && value !== null && 'launchFailure' in value
        ? launchFailureFault
        : callFault;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
  return z.NEVER;
});

const spotPriceChange = z
  .object({
    spotPrice: z
      .object({
        instanceType: z.string().min(1),
        zone: z.string().min(1),
        /** Hourly USD from now on. */
        price: z.number().positive(),
      })
      .strict(),
  })
  .strict();

const offeringChange = z
  .object({
    offering: z
      .object({
        instanceType: z.string().min(1),
        zone: z.string().min(1),
        capacityType: z.enum(['spot', 'on-demand']),
        /** false: withdrawn from the APIs (launches get InsufficientInstanceCapacity); true: back. */
        available: z.boolean(),
      })
      .strict(),
  })
  .strict();

/** A change of the simulated market: `{spotPrice: {...}}` or `{offering: {...}}`. */
const marketStep = z.custom<unknown>().transform((value, ctx) => {
  const kind = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  const schema = kind.includes('offering')
    ? offeringChange
    : kind.includes('spotPrice')
      ? spotPriceChange
      : undefined;
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      message:
        'expected {spotPrice: {instanceType, zone, price}} or {offering: {instanceType, zone, capacityType, available}}',
    });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as z.infer<typeof spotPriceChange> | z.infer<typeof offeringChange>;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
  return z.NEVER;
});

/** A KMS key of the account changes state (`kms disable-key`, `schedule-key-deletion`, `enable-key`...). */
const kmsKeyStep = z
  .object({
    /** The key's id or ARN, as the EC2NodeClass or the account default names it. */
    key: z.string().min(1),
    state: z.enum(KMS_KEY_STATES),
  })
  .strict();

/** One schema per step kind; a step is an object with exactly one of these keys. */
export const STEP_SCHEMAS = {
  apply: manifests,
  delete: manifests,
  scale: scaleStep,
  wait: waitStep as z.ZodType<z.infer<typeof duration> | z.infer<typeof waitCondition>>,
  interrupt: interruptStep,
  fault: faultStep as z.ZodType<
    z.infer<typeof iceFault> | z.infer<typeof launchFailureFault> | z.infer<typeof callFault>
  >,
  expect: expectationSchema,
  patch: patchStep,
  mark: markStep,
  market: marketStep as z.ZodType<z.infer<typeof spotPriceChange> | z.infer<typeof offeringChange>>,
  nodeCondition: nodeConditionStep,
  deleteNode: deleteNodeStep,
  capacityReservation: capacityReservationStep as z.ZodType<CapacityReservationStep>,
  kmsKey: kmsKeyStep,
} as const;

/** The kinds of step. */
export type StepKind = keyof typeof STEP_SCHEMAS;

/** A validated step. */
export type ScenarioStep = {
  [K in StepKind]: {
    readonly kind: K;
    readonly index: number;
    readonly spec: z.infer<(typeof STEP_SCHEMAS)[K]>;
  };
}[StepKind];

const bucketLimitSchema = z
  .object({
    capacity: z.number().min(1, 'a bucket holds at least 1 token'),
    refillPerSecond: z.number().positive('a bucket must refill (tokens per second > 0)'),
  })
  .strict();

const ec2ActionName = z.string().regex(/^[A-Z][A-Za-z0-9]+$/, 'expected an EC2 action such as CreateFleet');

/** A scenario's EC2 API throttling limits (functions/simulator/ec2/throttling). */
export const ec2ThrottlingSchema = z
  .object({
    enabled: z.boolean().optional(),
    categories: z
      .object({
        'non-mutating': bucketLimitSchema.optional(),
        'unfiltered-non-mutating': bucketLimitSchema.optional(),
        mutating: bucketLimitSchema.optional(),
        'resource-intensive': bucketLimitSchema.optional(),
      })
      .strict()
      .optional(),
    actions: z.record(ec2ActionName, bucketLimitSchema).optional(),
    resources: z.record(ec2ActionName, bucketLimitSchema).optional(),
  })
  .strict();

/** The simulated account's state: what a fresh account has, or what the user set up. */
export const accountSchema = z
  .object({
    /** Whether the spot service-linked role exists at the start (a fresh account has none). */
    spotServiceLinkedRole: z.boolean().default(false),
    /** The account's default EBS encryption key (customer-managed KMS key ARN). */
    defaultEbsKmsKeyArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/\S+$/,
        'expected a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)',
      )
      .optional(),
    /** The account's KMS keys by id or ARN and their states (a key not listed is enabled). */
    kmsKeys: z.record(z.string().min(1), z.enum(KMS_KEY_STATES)).optional(),
    /** EC2's eventual consistency: Describe* miss just-created resources for up to this many ms. */
    eventualConsistencyMs: z.number().int().min(0).max(60_000).optional(),
    /**
     * EC2's API throttling limits (default: on, the documented buckets): per category, per action's
     * request bucket, per action's resource bucket; `enabled: false` turns throttling off.
     */
    ec2Throttling: ec2ThrottlingSchema.optional(),
  })
  .strict();

/** The stack's context a user writes in cdk.json (the stack is synthesized with it). */
export const stackSchema = z
  .object({
    /** `joiner:nodeRoleArns`: node roles NodeClasses may name besides the stack's own. */
    nodeRoleArns: z
      .array(z.string().regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/\S+$/, 'expected an IAM role ARN'))
      .default([]),
    /** `joiner:ebsKmsKeyArns`: customer-managed EBS KMS keys the controller role may use through EC2. */
    ebsKmsKeyArns: z
      .array(z.string().regex(/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/\S+$/, 'expected a KMS key ARN'))
      .default([]),
  })
  .strict();

/** A denial a scenario expects (it fails on any other): the IAM action, and a resource ARN pattern (`*` wildcards). */
export const expectedDenialSchema = z
  .object({
    action: z
      .string()
      .regex(/^[a-z0-9-]+:[A-Za-z0-9*]+$/, 'expected an IAM action such as "ec2:CreateFleet"'),
    resource: z.string().min(1).optional(),
  })
  .strict();

/** The whole scenario file. */
export const scenarioSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    seed: z.number().int().default(1),
    /** Instance catalog JSON, relative to the scenario file (default: the bundled catalog). */
    catalog: z.string().min(1).optional(),
    /**
     * The simulated region (zones `<region>a/b/c`, subnets, offerings and prices follow it).
     * Default: the catalog's region, else us-west-2.
     */
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as "eu-west-1"')
      .optional(),
    /** Cluster name of the simulated EKS cluster (tags of the simulated subnets follow it). */
    clusterName: z.string().min(1).default('joiner-sim'),
    /** Virtual seconds per wall second. */
    speed: z.number().positive().max(1000).default(20),
    cluster: z.array(manifestSourceSchema).default([]),
    steps: z.array(z.record(z.string(), z.unknown())).min(1),
    expect: expectationSchema.optional(),
    account: accountSchema.default({ spotServiceLinkedRole: false }),
    stack: stackSchema.default({ nodeRoleArns: [], ebsKmsKeyArns: [] }),
    /** IAM denials this scenario expects; any other denial fails it. */
    expectDenials: z.array(expectedDenialSchema).default([]),
    /** The account's capacity reservations when the scenario starts (reservation-schema.ts). */
    capacityReservations: z.array(capacityReservationSchema).default([]),
  })
  .strict();

export type AccountOptions = z.infer<typeof accountSchema>;
export type StackOptions = z.infer<typeof stackSchema>;
export type ExpectedDenial = z.infer<typeof expectedDenialSchema>;

export type ManifestSource = z.infer<typeof manifestSourceSchema>;
export type Expectation = z.infer<typeof expectationSchema>;
/** The scenario file with steps still raw (see {@link STEP_SCHEMAS}). */
export type ScenarioFile = z.infer<typeof scenarioSchema>;
export type IceFault = z.infer<typeof iceFault>;
export type CallFault = z.infer<typeof callFault>;
export type LaunchFailureFault = z.infer<typeof launchFailureFault>;
export type KmsKeyStep = z.infer<typeof kmsKeyStep>;
export type InterruptStep = z.infer<typeof interruptStep>;
export type WaitStep = z.infer<(typeof STEP_SCHEMAS)['wait']>;
/** A `wait` for a condition (not a duration). */
export type WaitConditionStep = z.infer<typeof waitCondition>;
export type WaitCondition = z.infer<typeof waitFor>;
export type PatchStep = z.infer<typeof patchStep>;
export type NodeConditionStep = z.infer<typeof nodeConditionStep>;
export type DeleteNodeStep = z.infer<typeof deleteNodeStep>;
export type MarketStep = z.infer<(typeof STEP_SCHEMAS)['market']>;
