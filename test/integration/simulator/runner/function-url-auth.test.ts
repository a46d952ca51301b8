import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { type FunctionUrl, startFunctionUrl } from '../../../../functions/simulator/runner/function-url.js';
import {
  type FunctionUrlAuth,
  functionUrlAuth,
} from '../../../../functions/simulator/runner/function-url-auth.js';
import { stackAccount } from '../../../../functions/simulator/stack/stack-account.js';
import { type CfnTemplate, synthesizeStack } from '../../../../functions/simulator/stack/synthesize-stack.js';

const ACCOUNT = '111122223333';
const REGION = 'us-west-2';
const FUNCTION = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:hook`;

let url: FunctionUrl | undefined;
let invoked = 0;

async function serve(auth: FunctionUrlAuth): Promise<string> {
  url = await startFunctionUrl(
    async () => {
      invoked++;
      return { statusCode: 200, body: 'ran' };
    },
    ACCOUNT,
    auth,
  );
  return url.url;
}

afterEach(async () => {
  await url?.close();
  url = undefined;
  invoked = 0;
});

/** A SigV4 Authorization header naming `key` (the simulated services read the access key id). */
const signedBy = (key: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/${REGION}/lambda/aws4_request, SignedHeaders=host, Signature=00`,
});

describe('the deployed stack’s webhook function URL (auth type NONE, CloudFormation’s permission pair)', () => {
  let template: CfnTemplate;
  beforeAll(async () => {
    template = await synthesizeStack({ clusterName: 'my-cluster', region: REGION, account: ACCOUNT });
  }, 120_000);

  const accountOf = (t: CfnTemplate) =>
    stackAccount({
      template: t as unknown as Record<string, unknown>,
      source: 'the synthesized stack',
      clusterName: 'my-cluster',
      region: REGION,
      account: ACCOUNT,
      clock: () => 0,
    });

  it('the stack gives the webhook a URL with auth type NONE, and an unsigned call is let through', async () => {
    const account = accountOf(template);
    expect(account.functionUrlOf('webhook')).toMatchObject({ authType: 'NONE' });
    const base = await serve(functionUrlAuth(account.authorizer, account.functionUrlOf('webhook')));
    const response = await fetch(`${base}secret`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ran');
    expect(invoked).toBe(1);
    expect(account.authorizer.denials).toEqual([]);
  });

  it('without the lambda:InvokeFunction permission (InvokedViaFunctionUrl) the call is refused with 403 Forbidden and the function does not run', async () => {
    const resources = Object.fromEntries(
      Object.entries(template.Resources).filter(
        ([, r]) =>
          !(
            r.Type === 'AWS::Lambda::Permission' &&
            r.Properties?.Action === 'lambda:InvokeFunction' &&
            r.Properties?.InvokedViaFunctionUrl !== undefined
          ),
      ),
    );
    expect(Object.keys(resources).length).toBe(Object.keys(template.Resources).length - 1);
    const account = accountOf({ ...template, Resources: resources });
    const base = await serve(functionUrlAuth(account.authorizer, account.functionUrlOf('webhook')));
    const response = await fetch(`${base}secret`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ Message: 'Forbidden' });
    expect(invoked).toBe(0);
    expect(account.authorizer.denials.map((d) => d.action)).toEqual(['lambda:InvokeFunction']);
  });

  it('a function the stack gives no URL cannot be called through one', async () => {
    const account = accountOf(template);
    expect(account.functionUrlOf('provisioner')).toBeUndefined();
    const base = await serve(functionUrlAuth(account.authorizer, account.functionUrlOf('provisioner')));
    expect((await fetch(base, { method: 'POST' })).status).toBe(403);
    expect(invoked).toBe(0);
  });
});

describe('a function URL with auth type AWS_IAM', () => {
  const authorizer = () => {
    const a = AccountAuthorizer.fromPolicies(
      {
        identity: {
          [`arn:aws:iam::${ACCOUNT}:role/caller`]: [
            {
              Version: '2012-10-17',
              Statement: [
                {
                  Effect: 'Allow',
                  Action: 'lambda:InvokeFunctionUrl',
                  Resource: FUNCTION,
                  Condition: { StringEquals: { 'lambda:FunctionUrlAuthType': 'AWS_IAM' } },
                },
              ],
            },
          ],
          [`arn:aws:iam::${ACCOUNT}:role/other`]: [],
        },
      },
      { account: ACCOUNT, region: REGION, clock: () => 0 },
    );
    return {
      a,
      caller: a.registerPrincipal(`arn:aws:iam::${ACCOUNT}:role/caller`, 'caller').accessKeyId,
      other: a.registerPrincipal(`arn:aws:iam::${ACCOUNT}:role/other`, 'other').accessKeyId,
    };
  };

  it('an allowed signer gets through; unsigned, unknown-key and not-allowed calls get 403 and run nothing', async () => {
    const { a, caller, other } = authorizer();
    const base = await serve(functionUrlAuth(a, { functionArn: FUNCTION, authType: 'AWS_IAM' }));
    expect((await fetch(base, { method: 'POST' })).status).toBe(403);
    expect((await fetch(base, { method: 'POST', headers: signedBy('ASIAUNKNOWN') })).status).toBe(403);
    expect((await fetch(base, { method: 'POST', headers: signedBy(other) })).status).toBe(403);
    expect(invoked).toBe(0);
    const allowed = await fetch(base, { method: 'POST', headers: signedBy(caller) });
    expect(allowed.status).toBe(200);
    expect(invoked).toBe(1);
    expect(a.denials.map((d) => `${d.principal} ${d.action}`)).toEqual([
      `arn:aws:iam::${ACCOUNT}:role/other lambda:InvokeFunctionUrl`,
    ]);
  });
});
