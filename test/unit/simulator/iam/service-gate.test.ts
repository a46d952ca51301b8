import { describe, expect, it } from 'vitest';
import {
  accessKeyOf,
  gateCall,
  SIMULATOR_ACCESS_KEY_ID,
} from '../../../../functions/simulator/iam/authorization/service-gate.js';
import { ownerTagAuthorizer } from '../../../helpers/owner-tag-authorizer.js';

const ROLE = 'arn:aws:iam::111122223333:role/prod-joiner';
const authorizer = ownerTagAuthorizer({
  passRoleArns: [],
  ownerTag: { key: 'joiner.sh/cluster', value: 'prod' },
  principal: ROLE,
});
const unknown = { ...authorizer, principalOf: () => undefined };
const deleteProfile = () => [
  {
    action: 'iam:DeleteInstanceProfile',
    resource: 'arn:aws:iam::111122223333:instance-profile/p',
    context: {},
  },
];

describe('service gate', () => {
  it('reads the access key of a SigV4 header or a presigned URL', () => {
    const header =
      'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20260101/us-west-2/sqs/aws4_request, SignedHeaders=host';
    expect(accessKeyOf({ authorization: header })).toBe('ASIAEXAMPLE');
    expect(accessKeyOf({}, '/?X-Amz-Credential=AKIDQUERY%2F20260101%2Fus-west-2%2Fsts%2Faws4_request')).toBe(
      'AKIDQUERY',
    );
    expect(accessKeyOf({})).toBeUndefined();
  });

  it('lets the simulator’s own key through and every call when no authorizer is given', () => {
    expect(gateCall(authorizer, SIMULATOR_ACCESS_KEY_ID, 'json', deleteProfile)).toBeUndefined();
    expect(gateCall(undefined, 'ANY', 'json', deleteProfile)).toBeUndefined();
  });

  it('refuses in each protocol’s shape, naming the caller’s session, the action and the resource', () => {
    const json = gateCall(authorizer, 'ASIAKEY', 'json', deleteProfile);
    expect(json).toMatchObject({ code: 'AccessDeniedException', status: 400 });
    expect(json?.message).toBe(
      'User: arn:aws:sts::111122223333:assumed-role/prod-joiner/joiner is not authorized to perform: iam:DeleteInstanceProfile on resource: arn:aws:iam::111122223333:instance-profile/p because no identity-based policy allows the iam:DeleteInstanceProfile action',
    );
    expect(gateCall(authorizer, 'ASIAKEY', 'query', deleteProfile)).toMatchObject({
      code: 'AccessDenied',
      status: 403,
    });
    expect(gateCall(authorizer, 'ASIAKEY', 'sqs', deleteProfile)).toMatchObject({
      code: 'AccessDenied',
      status: 403,
    });
  });

  it('answers an unknown key and an unsigned request as AWS does', () => {
    expect(gateCall(unknown, 'AKIDUNKNOWN', 'json', deleteProfile)?.code).toBe('UnrecognizedClientException');
    expect(gateCall(unknown, 'AKIDUNKNOWN', 'query', deleteProfile)?.code).toBe('InvalidClientTokenId');
    expect(gateCall(unknown, undefined, 'json', deleteProfile)?.code).toBe(
      'MissingAuthenticationTokenException',
    );
  });
});
