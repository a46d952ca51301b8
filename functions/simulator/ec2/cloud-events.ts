/**
 * The EventBridge events EC2 and AWS Health publish about instances, with the detail shapes the
 * real services use (what joiner's interruption handler parses).
 */
import type { CloudEvent, Ec2Context } from './context.js';
import type { Ec2Instance } from './ec2-state.js';

function instanceArn(ctx: Ec2Context, instanceId: string): string {
  return `arn:aws:ec2:${ctx.region}:${ctx.state.topology.accountId}:instance/${instanceId}`;
}

/** "EC2 Instance State-change Notification". */
export function stateChangeEvent(ctx: Ec2Context, instance: Ec2Instance): CloudEvent {
  return {
    source: 'aws.ec2',
    detailType: 'EC2 Instance State-change Notification',
    detail: { 'instance-id': instance.instanceId, state: instance.state },
    resources: [instanceArn(ctx, instance.instanceId)],
  };
}

/** "EC2 Spot Instance Interruption Warning" (two minutes before termination). */
export function spotInterruptionEvent(ctx: Ec2Context, instance: Ec2Instance): CloudEvent {
  return {
    source: 'aws.ec2',
    detailType: 'EC2 Spot Instance Interruption Warning',
    detail: { 'instance-id': instance.instanceId, 'instance-action': 'terminate' },
    resources: [instanceArn(ctx, instance.instanceId)],
  };
}

/** "EC2 Instance Rebalance Recommendation". */
export function rebalanceEvent(ctx: Ec2Context, instance: Ec2Instance): CloudEvent {
  return {
    source: 'aws.ec2',
    detailType: 'EC2 Instance Rebalance Recommendation',
    detail: { 'instance-id': instance.instanceId },
    resources: [instanceArn(ctx, instance.instanceId)],
  };
}

/** "AWS Health Event" of category scheduledChange (instance retirement) for one instance. */
export function scheduledChangeEvent(ctx: Ec2Context, instance: Ec2Instance): CloudEvent {
  const now = ctx.clock.now();
  const start = new Date(now + 14 * 24 * 3600_000);
  const end = new Date(start.getTime() + 7 * 24 * 3600_000);
  const code = 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED';
  return {
    source: 'aws.health',
    detailType: 'AWS Health Event',
    detail: {
      eventArn: `arn:aws:health:${ctx.region}::event/EC2/${code}/${code}_${instance.instanceId}_${now}`,
      service: 'EC2',
      eventTypeCode: code,
      eventTypeCategory: 'scheduledChange',
      eventScopeCode: 'ACCOUNT_SPECIFIC',
      communicationId: `${instance.instanceId}-${now}`,
      startTime: start.toUTCString(),
      endTime: end.toUTCString(),
      lastUpdatedTime: new Date(now).toUTCString(),
      statusCode: 'upcoming',
      eventRegion: ctx.region,
      eventDescription: [
        {
          language: 'en_US',
          latestDescription: `EC2 has detected degradation of the underlying hardware hosting ${instance.instanceId}; it is scheduled for retirement.`,
        },
      ],
      affectedEntities: [{ entityValue: instance.instanceId }],
    },
    resources: [instance.instanceId],
  };
}
