import { describe, expect, it } from 'vitest';
import { launchFailureEvents } from '../../../../functions/core/provisioning/nominations.js';
import { nodePool } from '../../../builders/config.js';
import { pool } from '../scheduling/fixtures.js';

const denied =
  'UnauthorizedOperation: the controller role may not ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*';

describe('Warning events for failed launches', () => {
  const pools = [pool(nodePool({ name: 'spot' }), []), pool(nodePool({ name: 'general' }), [])];

  it('puts one Warning on the NodePool per distinct failure, naming the permission', () => {
    const events = launchFailureEvents(pools, [
      {
        nodeClaim: 'spot-1',
        reason: 'x',
        nodePool: 'spot',
        failure: { reason: 'LaunchNotAuthorized', message: denied },
      },
      {
        nodeClaim: 'spot-2',
        reason: 'x',
        nodePool: 'spot',
        failure: { reason: 'LaunchNotAuthorized', message: denied },
      },
    ]);
    expect(events).toEqual([
      {
        involvedObject: { kind: 'NodePool', apiVersion: expect.any(String), name: 'spot' },
        type: 'Warning',
        reason: 'LaunchNotAuthorized',
        message: `Launching nodeclaim spot-1 failed: ${denied}`,
      },
    ]);
  });

  it('says nothing of capacity outcomes, throws, or pools it does not know', () => {
    expect(
      launchFailureEvents(pools, [
        {
          nodeClaim: 'a',
          reason: 'NoCapacity: x',
          nodePool: 'general',
          failure: { reason: 'NoCapacity', message: 'x' },
        },
        { nodeClaim: 'b', reason: 'throttled' },
        { nodeClaim: 'c', reason: 'x', nodePool: 'gone', failure: { reason: 'LaunchFailed', message: 'y' } },
      ]),
    ).toEqual([]);
  });
});
