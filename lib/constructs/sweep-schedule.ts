import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SWEEP_SCHEDULE } from '../../functions/shared/event-sources.js';
import { applyTargetInput } from './target-input.js';

/** Properties of {@link SweepSchedule}. */
export interface SweepScheduleProps {
  /** The function the schedule invokes (the disruption function). */
  readonly function: IFunction;
  /** Where an invocation EventBridge could not make after its retries goes. */
  readonly deadLetterQueue?: IQueue;
}

/**
 * The safety net: an EventBridge schedule that invokes the disruption function every minute to
 * sweep due timers from the table and re-list pending pods, so no lost event or timer message
 * delays anything by more than a minute.
 */
export class SweepSchedule extends Construct {
  /** The schedule rule. */
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: SweepScheduleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: 'joiner safety-net sweep of timers and pending pods',
      schedule: Schedule.rate(Duration.minutes(SWEEP_SCHEDULE.rateMinutes)),
    });
    // Retries, event age and input come from the shared description the simulator's runner uses;
    // without input the function receives EventBridge's own "Scheduled Event".
    this.rule.addTarget(
      new LambdaFunction(props.function, {
        retryAttempts: SWEEP_SCHEDULE.retryAttempts,
        maxEventAge: Duration.seconds(SWEEP_SCHEDULE.maxEventAgeSeconds),
        ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
      }),
    );
    applyTargetInput(this.rule, SWEEP_SCHEDULE.input);
  }
}
