import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { SWEEP_SCHEDULE } from '../../functions/shared/event-sources.js';

/** Properties of {@link SweepSchedule}. */
export interface SweepScheduleProps {
  /** The function the schedule invokes (the disruption function). */
  readonly function: IFunction;
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
    this.rule.addTarget(
      // No custom input: the function receives EventBridge's own "Scheduled Event", which is how
      // the disruption handler tells a sweep from a timers-queue batch (and what the simulator sends).
      new LambdaFunction(props.function, {
        // A missed sweep is replaced by the next one a minute later.
        retryAttempts: 0,
        maxEventAge: Duration.minutes(1),
      }),
    );
  }
}
