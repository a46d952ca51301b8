/**
 * Instance state transitions on the virtual clock: pending -> running (the kubelet starts),
 * shutting-down -> terminated (interfaces with DeleteOnTermination are deleted and give their
 * addresses back, the pool gets its capacity back), each announced as an EC2 state-change event.
 */
import { releaseReservation } from './capacity-reservations.js';
import { stateChangeEvent } from './cloud-events.js';
import type { Ec2Context, Stage } from './context.js';
import type { Ec2Instance } from './ec2-state.js';

const STATE_CODES = { pending: 0, running: 16, 'shutting-down': 32, terminated: 48 } as const;

/** EC2's numeric code of a state. */
export function stateCode(state: Ec2Instance['state']): number {
  return STATE_CODES[state];
}

function stageDelay(ctx: Ec2Context, stage: Stage): number {
  return ctx.random.delay(stage.baseMs, stage.jitterMs);
}

/** Announces `pending` and moves the instance to `running` after the configured delay. */
export function scheduleRunning(ctx: Ec2Context, instance: Ec2Instance): void {
  ctx.emit?.(stateChangeEvent(ctx, instance));
  ctx.clock.setTimeout(
    () => {
      if (instance.state !== 'pending') return;
      instance.state = 'running';
      ctx.emit?.(stateChangeEvent(ctx, instance));
      ctx.observer?.instanceRunning(instance);
    },
    stageDelay(ctx, ctx.timings.pendingToRunning),
  );
}

/**
 * Starts terminating an instance (no-op when it is already shutting down or gone); returns the
 * state it had before.
 */
export function terminateInstance(
  ctx: Ec2Context,
  instance: Ec2Instance,
  reason: { code: string; message: string } = userInitiated,
): Ec2Instance['state'] {
  const previous = instance.state;
  if (previous === 'shutting-down' || previous === 'terminated') return previous;
  instance.state = 'shutting-down';
  instance.stateReason = reason;
  instance.stateTransitionReason = `${reason.message} (${new Date(ctx.clock.now()).toISOString()})`;
  ctx.emit?.(stateChangeEvent(ctx, instance));
  ctx.observer?.instanceTerminated(instance);
  ctx.clock.setTimeout(
    () => finishTermination(ctx, instance),
    stageDelay(ctx, ctx.timings.shuttingDownToTerminated),
  );
  return previous;
}

const userInitiated = {
  code: 'Client.UserInitiatedShutdown',
  message: 'Client.UserInitiatedShutdown: User initiated shutdown',
};

function finishTermination(ctx: Ec2Context, instance: Ec2Instance): void {
  instance.state = 'terminated';
  for (const eni of instance.networkInterfaces) releaseInterface(ctx, eni);
  releaseReservation(ctx, instance);
  ctx.state.adjustPool(instance.instanceType, instance.availabilityZone, instance.capacityType, +1);
  ctx.emit?.(stateChangeEvent(ctx, instance));
  ctx.clock.setTimeout(
    () => ctx.state.instances.delete(instance.instanceId),
    ctx.timings.terminatedVisibleMs,
  );
}

function releaseInterface(ctx: Ec2Context, eni: Ec2Instance['networkInterfaces'][number]): void {
  eni.status = 'available';
  eni.instanceId = undefined;
  eni.attachmentId = undefined;
  if (!eni.deleteOnTermination) return;
  ctx.state.networkInterfaces.delete(eni.networkInterfaceId);
  const subnet = ctx.state.subnets.get(eni.subnetId);
  if (eni.privateIpAddress) subnet?.release(eni.privateIpAddress);
}

/** Removes an instance that must not exist after all (a RunInstances below MinCount), freeing what it held. */
export function discardInstance(ctx: Ec2Context, instance: Ec2Instance): void {
  instance.state = 'terminated';
  releaseReservation(ctx, instance);
  for (const eni of instance.networkInterfaces) {
    ctx.state.networkInterfaces.delete(eni.networkInterfaceId);
    if (eni.privateIpAddress) ctx.state.subnets.get(eni.subnetId)?.release(eni.privateIpAddress);
  }
  ctx.state.adjustPool(instance.instanceType, instance.availabilityZone, instance.capacityType, +1);
  ctx.state.instances.delete(instance.instanceId);
}
