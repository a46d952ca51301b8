import { describe, expect, it } from 'vitest';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import { errorsOf, load } from '../model/config/helpers.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

/** The launch template's metadata options for a NodeClass written with `metadataOptions`. */
function metadataOf(metadataOptions?: object) {
  const doc = {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'imds' },
    spec: {
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      role: 'KarpenterNodeRole-test',
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
      ...(metadataOptions ? { metadataOptions } : {}),
    },
  };
  const loaded = load(doc);
  expect(errorsOf(loaded)).toEqual([]);
  const nodeClass = { ...multusNodeClass(), metadataOptions: loaded.nodeClasses[0]?.metadataOptions };
  const options = [option('c6i.2xlarge', 'us-west-2a', 'spot', 0.1)];
  const { templates } = planLaunch({
    claim: claim(options),
    nodeClass: nodeClass as ReturnType<typeof multusNodeClass>,
    family: 'AL2023',
    resolved: resolved(),
    options,
    capacityType: 'spot',
    clientToken: 'joiner-imds-1',
    instanceFacts: facts,
  });
  return templates[0]?.data.MetadataOptions;
}

describe('instance metadata (IMDS) of launched nodes', () => {
  it('requires IMDSv2 tokens with a hop limit of 1 when the NodeClass says nothing', () => {
    expect(metadataOf()).toEqual({
      HttpEndpoint: 'enabled',
      HttpTokens: 'required',
      HttpPutResponseHopLimit: 1,
      HttpProtocolIpv6: 'disabled',
    });
  });

  it('takes what a NodeClass says, field by field (the rest keeps the secure defaults)', () => {
    expect(metadataOf({ httpPutResponseHopLimit: 2 })).toEqual({
      HttpEndpoint: 'enabled',
      HttpTokens: 'required',
      HttpPutResponseHopLimit: 2,
      HttpProtocolIpv6: 'disabled',
    });
    expect(metadataOf({ httpTokens: 'optional' })).toMatchObject({
      HttpTokens: 'optional',
      HttpPutResponseHopLimit: 1,
    });
  });

  it('refuses a hop limit outside 1..64', () => {
    const loaded = load({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'far' },
      spec: {
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        role: 'r',
        subnetSelectorTerms: [{ tags: { a: 'b' } }],
        securityGroupSelectorTerms: [{ tags: { a: 'b' } }],
        metadataOptions: { httpPutResponseHopLimit: 65 },
      },
    });
    expect(errorsOf(loaded).map((e) => e.path)).toContain('spec.metadataOptions.httpPutResponseHopLimit');
  });
});
