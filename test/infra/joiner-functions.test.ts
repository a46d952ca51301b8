import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/shared/env.js';
import { FUNCTIONS } from '../../functions/shared/event-sources.js';
import { JoinerEventBus } from '../../lib/constructs/event-bus.js';
import { JoinerFunctions } from '../../lib/constructs/joiner-functions.js';
import { NodeRole } from '../../lib/constructs/node-role.js';
import { StateTable } from '../../lib/constructs/state-table.js';
import { WorkQueues } from '../../lib/constructs/work-queues.js';
import { actionsOf, bareStack, resourcesOf, statementsOf, stubCode } from './stack-fixture.js';

describe('JoinerFunctions (and HandlerFunction)', () => {
  const stack = bareStack();
  const queues = new WorkQueues(stack, 'Queues');
  const fns = new JoinerFunctions(stack, 'Functions', {
    clusterName: 'prod',
    clusterEndpoint: 'https://ABC.gr7.us-west-2.eks.amazonaws.com',
    kubernetesVersion: '1.31',
    table: new StateTable(stack, 'State').table,
    bus: new JoinerEventBus(stack, 'Events', { queues }).bus,
    queues,
    nodeRole: new NodeRole(stack, 'NodeRole', { clusterName: 'prod' }),
    logLevel: 'DEBUG',
    code: stubCode,
  });
  const template = Template.fromStack(stack);
  const lambdas = resourcesOf(template, 'AWS::Lambda::Function').map(
    ([, f]) => f.Properties as Record<string, any>,
  );

  it('runs every function on nodejs22.x / arm64 with source maps and Powertools settings', () => {
    expect(lambdas).toHaveLength(Object.keys(FUNCTIONS).length);
    for (const f of lambdas) {
      expect(f.Runtime).toBe('nodejs22.x');
      expect(f.Architectures).toEqual(['arm64']);
      expect(f.Environment.Variables).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.logLevel]: 'DEBUG',
        [ENV.metricsNamespace]: 'joiner',
      });
      expect(f.LoggingConfig?.LogGroup).toBeDefined();
    }
  });

  it('takes timeout and memory from the shared description, and reserves no concurrency by default', () => {
    for (const [name, spec] of Object.entries(FUNCTIONS)) {
      const f = lambdas.find((l) => l.Environment.Variables[ENV.serviceName] === `joiner-${name}`);
      expect(f, name).toMatchObject({ Timeout: spec.timeoutSeconds, MemorySize: spec.memoryMiB });
      // Reserved concurrency is opt-in (joiner:reservedConcurrency): none by default.
      expect(f?.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('gives the controller functions the cluster, table, bus and queue settings', () => {
    const provisioner = lambdas.find(
      (l) => l.Environment.Variables[ENV.serviceName] === 'joiner-provisioner',
    );
    expect(Object.keys(provisioner?.Environment.Variables)).toEqual(
      expect.arrayContaining([
        ENV.clusterName,
        ENV.clusterEndpoint,
        ENV.tableName,
        ENV.busName,
        ENV.timersQueueUrl,
        ENV.nodeRoleName,
        ENV.instanceProfileName,
      ]),
    );
    expect(provisioner?.Environment.Variables[ENV.kubernetesVersion]).toBe('1.31');
    expect(provisioner?.Environment.Variables[ENV.clusterCa]).toBeUndefined();
    expect(provisioner?.Environment.Variables[ENV.serviceCidr]).toBeUndefined();
  });

  it('keeps the webhook role to publishing events and writing logs', () => {
    const webhookRoleId = stack.getLogicalId(fns.webhookRole.node.defaultChild as never);
    const policies = resourcesOf(template, 'AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.Roles).includes(webhookRoleId),
    );
    const actions = policies.flatMap(([, p]) =>
      (p.Properties.PolicyDocument as { Statement: never[] }).Statement.flatMap(actionsOf),
    );
    expect(new Set(actions)).toEqual(
      new Set(['events:PutEvents', 'logs:CreateLogStream', 'logs:PutLogEvents']),
    );
    expect(statementsOf(template).flatMap(actionsOf)).not.toContain('*');
  });
});
