import { stringify } from 'yaml';
import type { LoadedConfig } from '../../../../../functions/core/model/config/load.js';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';
import { parseYamlDocuments } from '../../../../../functions/core/model/config/raw-document.js';

/** An EC2NodeClass named `default` that NodePools in tests can refer to. */
export const DEFAULT_NODE_CLASS = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: {
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    role: 'KarpenterNodeRole-test',
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
  },
};

/** A karpenter.sh/v1 NodePool document with the given spec overrides. */
export function v1Pool(name: string, template: object = {}, spec: object = {}): object {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [],
          ...template,
        },
      },
      ...spec,
    },
  };
}

/** Loads objects as documents of one file `test.yaml` (through YAML, as files are read). */
export function load(...objects: object[]): LoadedConfig {
  const text = objects.map((o) => stringify(o)).join('---\n');
  const { documents, diagnostics } = parseYamlDocuments('test.yaml', text);
  const loaded = loadDocuments(documents);
  return { ...loaded, diagnostics: [...diagnostics, ...loaded.diagnostics] };
}

/** The error diagnostics of a load. */
export function errorsOf(loaded: LoadedConfig) {
  return loaded.diagnostics.filter((d) => d.severity === 'error');
}
