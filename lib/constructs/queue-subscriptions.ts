import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import {
  EVENT_SOURCES,
  type EventSourceSpec,
  type FunctionName,
} from '../../functions/shared/event-sources.js';
import type { WorkQueues } from './work-queues.js';

/** Properties of {@link QueueSubscriptions}. */
export interface QueueSubscriptionsProps {
  readonly queues: WorkQueues;
  /** The consuming functions by name. */
  readonly functions: Readonly<Partial<Record<FunctionName, IFunction>>>;
  /**
   * Batching window of the provisioning queue, in seconds (how long pending pods are gathered
   * into one plan).
   * @default the shared description's window
   */
  readonly provisioningBatchingWindowSeconds?: number;
}

/**
 * The SQS event source mappings, exactly as the shared description (which the simulator's Lambda
 * runner also uses) says: batch size, batching window, maximum concurrency, and partial batch
 * failure reporting.
 */
export class QueueSubscriptions extends Construct {
  constructor(scope: Construct, id: string, props: QueueSubscriptionsProps) {
    super(scope, id);
    for (const spec of EVENT_SOURCES) {
      const source = withWindow(spec, props.provisioningBatchingWindowSeconds);
      const fn = props.functions[source.function];
      if (!fn)
        throw new Error(`QueueSubscriptions: no function '${source.function}' for queue '${source.queue}'`);
      assertValid(source);
      fn.addEventSource(
        new SqsEventSource(props.queues.queue(source.queue), {
          batchSize: source.batchSize,
          maxBatchingWindow: Duration.seconds(source.batchingWindowSeconds),
          maxConcurrency: source.maxConcurrency,
          reportBatchItemFailures: source.reportBatchItemFailures,
        }),
      );
    }
  }
}

function withWindow(spec: EventSourceSpec, provisioningWindow: number | undefined): EventSourceSpec {
  if (spec.queue !== 'provisioning' || provisioningWindow === undefined) return spec;
  return { ...spec, batchingWindowSeconds: provisioningWindow };
}

/** The limits AWS Lambda enforces on SQS event sources, checked at synth with a clear message. */
function assertValid(source: EventSourceSpec): void {
  const where = `event source ${source.queue} -> ${source.function}`;
  const window = source.batchingWindowSeconds;
  if (!Number.isInteger(window) || window < 0 || window > 300) {
    throw new Error(`${where}: batching window must be a whole number of seconds in 0..300 (got ${window})`);
  }
  if (source.batchSize > 10 && window < 1) {
    throw new Error(
      `${where}: a batch size over 10 (got ${source.batchSize}) needs a batching window of at least 1 s`,
    );
  }
  if (source.maxConcurrency < 2 || source.maxConcurrency > 1000) {
    throw new Error(`${where}: maximum concurrency must be in 2..1000 (got ${source.maxConcurrency})`);
  }
}
