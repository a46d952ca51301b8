import { describe, expect, it } from 'vitest';
import {
  decodeAuthorizationFailureMessage,
  unauthorizedOperation,
} from '../../../../functions/simulator/ec2/authorization/unauthorized-operation.js';

const request = {
  principal: 'arn:aws:iam::111122223333:role/r',
  action: 'ec2:RunInstances',
  resource: 'arn:aws:ec2:us-west-2:111122223333:volume/*',
  context: { 'aws:TagKeys': ['a', 'b'], 'ec2:Region': 'us-west-2' },
};

describe('UnauthorizedOperation', () => {
  it('is a 403 whose message names the caller, action and resource and carries a decodable document', () => {
    const error = unauthorizedOperation(request, { allowed: false, outcome: 'implicit-deny' });
    expect(error.code).toBe('UnauthorizedOperation');
    expect(error.httpStatus).toBe(403);
    expect(error.message).toMatch(
      /^You are not authorized to perform this operation\. User: arn:aws:iam::111122223333:role\/r is not authorized to perform: ec2:RunInstances on resource: arn:aws:ec2:us-west-2:111122223333:volume\/\* because no identity-based policy allows the ec2:RunInstances action\. Encoded authorization failure message: [A-Za-z0-9_-]+$/,
    );
    const document = decodeAuthorizationFailureMessage(error.message);
    expect(document.context.conditions.items).toEqual([
      { key: 'aws:TagKeys', values: { items: [{ value: 'a' }, { value: 'b' }] } },
      { key: 'ec2:Region', values: { items: [{ value: 'us-west-2' }] } },
    ]);
  });

  it('says explicit deny when a statement denied', () => {
    const error = unauthorizedOperation(request, {
      allowed: false,
      outcome: 'explicit-deny',
      statement: 'p/Deny',
    });
    expect(error.message).toContain('with an explicit deny in an identity-based policy.');
    expect(decodeAuthorizationFailureMessage(error.message).explicitDeny).toBe(true);
  });

  it('refuses to decode something that is not such a message, quoting it', () => {
    expect(() => decodeAuthorizationFailureMessage('not-a-message')).toThrow(
      /not an encoded authorization failure message.*not-a-message/,
    );
  });
});
