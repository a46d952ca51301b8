/** A fake cluster holding a seed example's NodePools / NodeClasses as documents and its workloads as pending pods. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadFiles } from '../../../../functions/adapters/files/load-files.js';
import { parseYamlDocuments } from '../../../../functions/core/model/config/raw-document.js';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import type { ConfigDocument } from '../../../../functions/core/ports/cluster-api.js';
import { FakeCluster } from './fakes.js';

const CONFIG_GROUPS = ['karpenter.sh', 'karpenter.k8s.aws', 'joiner.sh'];

/** A pending pod as the API server shows it: a uid and PodScheduled=False/Unschedulable. */
export function asPending(pod: Pod): Pod {
  const ns = pod.metadata.namespace ?? 'default';
  return {
    ...pod,
    metadata: { ...pod.metadata, namespace: ns, uid: pod.metadata.uid ?? `uid-${ns}-${pod.metadata.name}` },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

/** The configuration documents of the YAML files in `dir`. */
export async function configDocuments(dir: string): Promise<ConfigDocument[]> {
  const out: ConfigDocument[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort()) {
    const { documents } = parseYamlDocuments(file, await readFile(join(dir, file), 'utf8'));
    for (const d of documents) {
      const o = d.object as ConfigDocument;
      if (CONFIG_GROUPS.includes(String(o.apiVersion).split('/')[0])) out.push(o);
    }
  }
  return out;
}

/** A cluster with the seed's configuration and its workload pods pending. */
export async function seedCluster(dir: string): Promise<FakeCluster> {
  const cluster = new FakeCluster();
  const docs = await configDocuments(dir);
  cluster.nodeClassDocs = docs.filter((d) => d.kind.endsWith('NodeClass'));
  cluster.nodePoolDocs = docs.filter((d) => !d.kind.endsWith('NodeClass'));
  const loaded = await loadFiles([dir]);
  cluster.pods = loaded.workloads.pods.map(asPending);
  return cluster;
}
