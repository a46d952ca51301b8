/**
 * The latency model of the simulated cloud, as data: per service and call, the median (p50) and
 * 99th percentile (p99) of the time the call takes as seen by a client in the same region, in
 * milliseconds. A call's latency is drawn from the log-normal distribution with these two
 * quantiles (see api-latency.ts), with the simulation's seed.
 *
 * These are assumptions, chosen to agree with what is published; none is a measurement of ours:
 * - DynamoDB: "single-digit millisecond performance at any scale" (DynamoDB product page) for
 *   single-item reads and conditional writes; queries a little more.
 * - SQS: tens of milliseconds per Send / Receive / Delete from inside the region (the SQS developer
 *   guide's "tens or low hundreds of milliseconds"; softwaremill.com, "Amazon's SQS performance and
 *   latency", measured tens of ms per batch).
 * - EventBridge: PutEvents answers in tens of ms; a rule delivers to its SQS target in about a
 *   hundred ms since the February 2023 latency improvement (AWS announcement; PostNL Engineering,
 *   "Improved EventBridge Latency Opens Up New Use Cases at PostNL", 2023), previously ~0.5 s.
 * - Lambda: a warm function URL invocation adds ~10-20 ms; an SQS event source mapping long-polls
 *   the queue and invokes the function ~tens of ms after a message is visible (plus the batching
 *   window, which is configured, not modeled).
 * - EC2: Describe* calls take 100-300 ms, larger pages more; CreateFleet (type instant) returns
 *   once instances are requested, typically 1-3 s (the `Create` method of Karpenter's
 *   `karpenter_cloudprovider_duration_seconds` histogram sits in these buckets); TerminateInstances
 *   and CreateTags ~200 ms.
 * - Kubernetes API (EKS): single-object reads and writes take ~10-30 ms, lists more; the upstream
 *   SLO bounds mutating single-object calls at p99 <= 1 s and lists at p99 <= 30 s
 *   (kubernetes/community sig-scalability/slos/api_call_latency.md), a healthy control plane is far
 *   below that.
 * IAM and SSM calls are not modeled (joiner makes them once per cold start or per NodeClass change).
 */

/** Quantiles of one call's latency, in milliseconds. */
export interface LatencyQuantiles {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Per service, per call (`*`: every other call of the service). */
export type LatencyTable = Readonly<Record<string, Readonly<Record<string, LatencyQuantiles>>>>;

const q = (p50Ms: number, p99Ms: number): LatencyQuantiles => ({ p50Ms, p99Ms });

/** The default model (us-east-1-like region, client in the same region). */
export const AWS_LATENCY: LatencyTable = {
  dynamodb: {
    GetItem: q(4, 15),
    PutItem: q(6, 20),
    UpdateItem: q(6, 20),
    DeleteItem: q(6, 20),
    Query: q(8, 30),
    Scan: q(15, 60),
    BatchWriteItem: q(10, 40),
    BatchGetItem: q(8, 30),
    '*': q(6, 25),
  },
  sqs: {
    SendMessage: q(15, 60),
    SendMessageBatch: q(20, 80),
    DeleteMessage: q(12, 50),
    DeleteMessageBatch: q(15, 60),
    ChangeMessageVisibility: q(12, 50),
    ChangeMessageVisibilityBatch: q(15, 60),
    ReceiveMessage: q(20, 80),
    '*': q(15, 60),
  },
  events: {
    PutEvents: q(25, 100),
    /** A rule delivering a matched event to its target (not an API call). */
    RuleDelivery: q(120, 450),
    '*': q(30, 120),
  },
  lambda: {
    /** A function URL request reaching the (warm) function. */
    FunctionUrl: q(12, 45),
    /** An SQS event source mapping handing visible messages to the function. */
    SqsPoll: q(40, 200),
  },
  ec2: {
    CreateFleet: q(1500, 3500),
    RunInstances: q(1500, 3500),
    TerminateInstances: q(250, 900),
    CreateTags: q(150, 600),
    CreateLaunchTemplate: q(200, 700),
    DeleteLaunchTemplate: q(200, 700),
    ModifyNetworkInterfaceAttribute: q(200, 700),
    DescribeInstanceTypes: q(300, 1200),
    DescribeSpotPriceHistory: q(300, 1200),
    '*': q(150, 600),
  },
  kubernetes: {
    get: q(12, 60),
    list: q(25, 150),
    write: q(18, 90),
    '*': q(15, 80),
  },
};
