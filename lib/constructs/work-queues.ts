import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  EVENT_SOURCES,
  type QueueName,
  visibilityTimeoutSeconds,
} from '../../functions/shared/event-sources.js';

/** Properties of {@link WorkQueues}. */
export interface WorkQueuesProps {
  /**
   * How long a message waits in a dead-letter queue for someone to look at it.
   * @default 14 days (the SQS maximum)
   */
  readonly deadLetterRetention?: Duration;
}

/**
 * The SQS queues joiner's functions consume (provisioning, lifecycle, interruption, timers), each
 * with a dead-letter queue, SQS-managed encryption, TLS-only access and a visibility timeout of
 * six times its consumer's timeout, all from the shared event-source description; and the
 * dead-letter queue of the EventBridge rule targets.
 */
export class WorkQueues extends Construct {
  /**
   * Where EventBridge puts an event it could not deliver to a rule target (a queue or the sweep's
   * function) after its retries: kept 14 days for someone to look at, and alarmed on.
   */
  readonly ruleTargetDeadLetters: Queue;
  private readonly queues = new Map<QueueName, Queue>();
  private readonly deadLetterQueues = new Map<QueueName, Queue>();

  constructor(scope: Construct, id: string, props: WorkQueuesProps = {}) {
    super(scope, id);
    this.ruleTargetDeadLetters = new Queue(this, 'RuleTargetDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: props.deadLetterRetention ?? Duration.days(14),
    });
    Validations.of(this.ruleTargetDeadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is the dead-letter queue of the EventBridge rule targets (DeadLetterConfig), which cdk-nag does not recognise as DLQ use.',
    });
    for (const source of EVENT_SOURCES) {
      const dlq = new Queue(this, `${capitalize(source.queue)}DeadLetters`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: props.deadLetterRetention ?? Duration.days(14),
      });
      const queue = new Queue(this, capitalize(source.queue), {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(source)),
        deadLetterQueue: { queue: dlq, maxReceiveCount: source.maxReceiveCount },
      });
      this.queues.set(source.queue, queue);
      this.deadLetterQueues.set(source.queue, dlq);
    }
  }

  /** The queue of that name. */
  queue(name: QueueName): Queue {
    return required(this.queues.get(name), name, this);
  }

  /** The dead-letter queue of the named queue. */
  deadLetterQueue(name: QueueName): Queue {
    return required(this.deadLetterQueues.get(name), name, this);
  }
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function required(queue: Queue | undefined, name: string, scope: Construct): Queue {
  if (!queue) throw new Error(`${scope.node.path} (${Stack.of(scope).stackName}): no queue named '${name}'`);
  return queue;
}
