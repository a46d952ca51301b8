/**
 * Simulated IAM benchmark: the per-call cost of `authorize()` for the requests joiner's functions
 * make most (EC2 launch and terminate, SQS, DynamoDB, PassRole), against the policies of the
 * synthesized stack (handler code stubbed: only the IAM matters), with the decision cache on and
 * off. Prints microseconds per call; no target is asserted.
 *
 * `npm run bench:iam`, `-- --calls 20000`, `-- --stack-template cdk.out` to read a synthesized
 * template instead of synthesizing in-process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV } from '../functions/shared/env.js';
import { AccountAuthorizer } from '../functions/simulator/iam/authorization/account-authorizer.js';
import type { AuthorizationRequest } from '../functions/simulator/iam/authorization/authorization-request.js';
import { loadServiceReference } from '../functions/simulator/iam/authorization/service-reference.js';
import { readStackIam } from '../functions/simulator/iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../functions/simulator/iam/authorization/stack-naming-resolver.js';
import { loadStackTemplate } from '../functions/simulator/iam/authorization/stack-template-file.js';
import type { TemplateParts } from '../functions/simulator/iam/authorization/template-intrinsics.js';
import { createJoinerApp } from '../lib/app.js';
import { stubCode } from '../test/infra/stack-fixture.js';

const ACCOUNT = '111111111111';
const REGION = 'us-west-2';
const argument = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const CALLS = Number(argument('--calls') ?? 20000);

function templateDirectory(): string {
  const given = argument('--stack-template');
  if (given) return given;
  const outdir = mkdtempSync(join(tmpdir(), 'joiner-bench-iam-'));
  const context = { 'joiner:clusterName': 'prod', 'joiner:account': ACCOUNT, 'joiner:region': REGION };
  createJoinerApp({ context, outdir, overrides: { code: stubCode } }).app.synth();
  return outdir;
}

const t0 = performance.now();
const { file, template } = loadStackTemplate(templateDirectory());
const t1 = performance.now();
const parts = template as unknown as TemplateParts;
const iam = readStackIam(parts, stackNamingResolver(parts, { account: ACCOUNT, region: REGION }), file);
const t2 = performance.now();
const reference = await loadServiceReference();
const t3 = performance.now();

const controller = iam.roles.find((r) => r.logicalId.startsWith('JoinerFunctionsControllerRole'))!.arn;
const node = iam.roles.find((r) => r.logicalId.startsWith('JoinerNodeRole'))!.arn;
const env = iam.functions.find(
  (f) => f.environment.JOINER_TABLE_NAME && f.roleArn === controller,
)!.environment;
// The queue the controller sends to: its nodeclaim timers (the provisioning queue is fed by EventBridge).
const timersQueueUrl = env[ENV.timersQueueUrl];
if (!timersQueueUrl)
  throw new Error(`bench:iam: the controller's functions have no ${ENV.timersQueueUrl} in their environment`);
const queueName = timersQueueUrl.split('/').pop();
const ec2 = `arn:aws:ec2:${REGION}:${ACCOUNT}`;
const tag = { 'aws:RequestTag/joiner.sh/cluster': 'prod', 'aws:TagKeys': ['joiner.sh/cluster', 'Name'] };
const REQUESTS: [string, Omit<AuthorizationRequest, 'principal'>][] = [
  [
    'ec2:CreateFleet fleet (request tags)',
    { action: 'ec2:CreateFleet', resource: `${ec2}:fleet/*`, context: tag },
  ],
  [
    'ec2:CreateFleet instance (request tags)',
    { action: 'ec2:CreateFleet', resource: `${ec2}:instance/*`, context: tag },
  ],
  [
    'ec2:DescribeInstances *',
    { action: 'ec2:DescribeInstances', resource: '*', context: { 'ec2:Region': REGION } },
  ],
  [
    'ec2:TerminateInstances (resource tags)',
    {
      action: 'ec2:TerminateInstances',
      resource: `${ec2}:instance/i-0123456789abcdef0`,
      context: {
        'aws:ResourceTag/joiner.sh/cluster': 'prod',
        'aws:ResourceTag/joiner.sh/owner': env.JOINER_TABLE_NAME,
      },
    },
  ],
  [
    'iam:PassRole',
    { action: 'iam:PassRole', resource: node, context: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
  ],
  [
    'sqs:SendMessage (timers queue)',
    { action: 'sqs:SendMessage', resource: `arn:aws:sqs:${REGION}:${ACCOUNT}:${queueName}`, context: {} },
  ],
  [
    'dynamodb:UpdateItem',
    {
      action: 'dynamodb:UpdateItem',
      resource: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${env.JOINER_TABLE_NAME}`,
      context: {},
    },
  ],
];

function perCall(
  authorizer: AccountAuthorizer,
  request: AuthorizationRequest,
): { us: number; allowed: boolean } {
  const allowed = authorizer.authorize(request).allowed;
  for (let i = 0; i < 200; i++) authorizer.authorize(request);
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) authorizer.authorize(request);
  return { us: Number(process.hrtime.bigint() - start) / 1000 / CALLS, allowed };
}

const options = {
  account: ACCOUNT,
  region: REGION,
  clock: () => Date.parse('2026-11-27T06:00:00Z'),
  reference,
};
const cached = AccountAuthorizer.fromStack(iam, options);
const uncached = AccountAuthorizer.fromStack(iam, { ...options, cacheDecisions: false });
console.log(
  `template ${file}: read ${(t1 - t0).toFixed(0)} ms (synth included), IAM ${(t2 - t1).toFixed(1)} ms; service reference ${(t3 - t2).toFixed(0)} ms`,
);
console.log(`authorize() as the controller role, ${CALLS} calls each (µs per call)`);
console.log(
  `${'request'.padEnd(42)} ${'decision'.padEnd(9)} ${'cached'.padStart(8)} ${'uncached'.padStart(9)}`,
);
for (const [label, request] of REQUESTS) {
  const r = { principal: controller, ...request };
  const c = perCall(cached, r);
  const u = perCall(uncached, r);
  console.log(
    `${label.padEnd(42)} ${(c.allowed ? 'allow' : 'deny').padEnd(9)} ${c.us.toFixed(2).padStart(8)} ${u.us.toFixed(2).padStart(9)}`,
  );
}
