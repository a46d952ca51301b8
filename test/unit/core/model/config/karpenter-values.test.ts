/**
 * Every value of the enums in Karpenter's v1 NodePool, v1alpha1 NodeOverlay and v1 EC2NodeClass
 * CRDs (`enums` in test/fixtures/karpenter-fields.json) is either implemented by joiner — the
 * document loads and its model carries the value — or refused with an error naming the value and
 * saying joiner does not implement it, and then named in the README's "not supported" list. A value
 * a newer CRD adds fails here until it is one or the other, so none is read as something else.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unimplementedKarpenterField } from '../../../../../functions/core/model/config/karpenter-fields.js';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';
import { namedInBackticks, readmeNotSupported } from '../../../../helpers/readme-not-supported.js';

const { enums } = JSON.parse(
  readFileSync(new URL('../../../../fixtures/karpenter-fields.json', import.meta.url), 'utf8'),
) as { enums: Record<string, Record<string, string[]>> };

const NODE_CLASS_SPEC = {
  role: 'node-role',
  amiSelectorTerms: [{ alias: 'al2023@latest' }],
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
};
const nodeClass = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: { ...NODE_CLASS_SPEC, ...spec },
});
const nodePool = (template: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'pool' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        ...template,
      },
    },
    ...spec,
  },
});
const requirement = (operator: string) => ({
  key: 'karpenter.k8s.aws/instance-cpu',
  operator,
  ...(operator === 'Exists' || operator === 'DoesNotExist' ? {} : { values: ['4'] }),
});

/** A valid document setting each enum field to `value` (the NodePool beside its EC2NodeClass). */
const SETTERS: Record<string, Record<string, (value: string) => unknown[]>> = {
  'karpenter.sh/v1 NodePool': {
    'spec.disruption.budgets[].reasons[]': (v) => [
      nodePool({}, { disruption: { budgets: [{ nodes: '1', reasons: [v] }] } }),
      nodeClass({}),
    ],
    'spec.disruption.consolidationPolicy': (v) => [
      nodePool({}, { disruption: { consolidationPolicy: v } }),
      nodeClass({}),
    ],
    'spec.template.spec.requirements[].operator': (v) => [
      nodePool({ requirements: [requirement(v)] }),
      nodeClass({}),
    ],
    'spec.template.spec.startupTaints[].effect': (v) => [
      nodePool({ startupTaints: [{ key: 'example.com/init', effect: v }] }),
      nodeClass({}),
    ],
    'spec.template.spec.taints[].effect': (v) => [
      nodePool({ taints: [{ key: 'example.com/special', effect: v }] }),
      nodeClass({}),
    ],
  },
  'karpenter.sh/v1alpha1 NodeOverlay': {
    'spec.requirements[].operator': (v) => [
      {
        apiVersion: 'karpenter.sh/v1alpha1',
        kind: 'NodeOverlay',
        metadata: { name: 'overlay' },
        spec: { requirements: [requirement(v)], price: '1' },
      },
    ],
  },
  'karpenter.k8s.aws/v1 EC2NodeClass': {
    'spec.amiFamily': (v) => [
      nodeClass({ amiFamily: v, amiSelectorTerms: [{ id: 'ami-0123456789abcdef0' }] }),
    ],
    'spec.blockDeviceMappings[].ebs.volumeType': (v) => [
      nodeClass({
        blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi', volumeType: v } }],
      }),
    ],
    'spec.capacityReservationSelectorTerms[].instanceMatchCriteria': (v) => [
      nodeClass({ capacityReservationSelectorTerms: [{ instanceMatchCriteria: v }] }),
    ],
    'spec.instanceStorePolicy': (v) => [nodeClass({ instanceStorePolicy: v })],
    'spec.metadataOptions.httpEndpoint': (v) => [nodeClass({ metadataOptions: { httpEndpoint: v } })],
    'spec.metadataOptions.httpProtocolIPv6': (v) => [nodeClass({ metadataOptions: { httpProtocolIPv6: v } })],
    'spec.metadataOptions.httpTokens': (v) => [nodeClass({ metadataOptions: { httpTokens: v } })],
  },
};

const load = (objects: unknown[]) =>
  loadDocuments(objects.map((object, index) => ({ file: 'doc.yaml', index, object })));

/** The loaded object of the document's own kind (not the EC2NodeClass beside a NodePool). */
function loadedOf(kind: string, loaded: ReturnType<typeof load>): unknown {
  if (kind.endsWith(' NodePool')) return loaded.nodePools[0];
  if (kind.endsWith(' NodeOverlay')) return loaded.nodeOverlays[0];
  return loaded.nodeClasses[0];
}

/** The field path of an enum, without its list steps, split (`a[].b[]` -> a, b). */
const steps = (path: string) => path.replaceAll('[]', '').split('.');

const section = readmeNotSupported();
const named = namedInBackticks(section);

describe("Karpenter's enum values: implemented or refused, never read as another", () => {
  for (const [kind, fields] of Object.entries(enums)) {
    const [apiVersion, name] = kind.split(' ');
    for (const [path, values] of Object.entries(fields)) {
      it(`${kind} ${path}: ${values.join(', ')}`, () => {
        const refusedField = unimplementedKarpenterField(apiVersion, name, steps(path));
        if (refusedField !== undefined) {
          // The whole field is refused (and named in the README by the field test): so is each value.
          return;
        }
        const set = SETTERS[kind]?.[path];
        expect(set, `how to set ${path} in a ${kind}`).toBeDefined();
        for (const value of values) {
          const loaded = load(set!(value));
          const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
          const object = loadedOf(kind, loaded);
          if (errors.length === 0) {
            expect(object, `${path}: ${value} loads`).toBeDefined();
            expect(JSON.stringify(object), `${path}: the model carries ${value}`).toContain(`"${value}"`);
            continue;
          }
          expect(
            errors.some((d) => d.message.includes(value) && /is not supported/.test(d.message)),
            `${path}: ${value} is refused as not supported: ${JSON.stringify(errors)}`,
          ).toBe(true);
          expect(object, `${path}: ${value} is refused, not loaded`).toBeUndefined();
          expect(named, `README's not-supported list names \`${value}\``).toContain(value);
        }
      });
    }
  }

  it('Balanced names the field, the value and what to use instead', () => {
    const loaded = load(
      SETTERS['karpenter.sh/v1 NodePool']['spec.disruption.consolidationPolicy']('Balanced'),
    );
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        document: 'NodePool/pool',
        path: 'spec.disruption.consolidationPolicy',
        message: expect.stringMatching(
          /^value "Balanced" of field "consolidationPolicy" is not supported, joiner does not implement it: /,
        ),
        hint: expect.stringContaining('WhenEmptyOrUnderutilized'),
      }),
    ]);
    expect(loaded.nodePools).toEqual([]);
  });

  it('a Windows2025 alias is refused as Windows, not as an unknown family', () => {
    const loaded = load([nodeClass({ amiSelectorTerms: [{ alias: 'windows2025@latest' }] })]);
    expect(loaded.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        path: 'spec.amiSelectorTerms[0].alias',
        message: expect.stringContaining('joiner does not launch Windows nodes'),
      }),
    );
    expect(loaded.nodeClasses).toEqual([]);
  });
});
