import type { DocumentSource, NodeClassRef, NodePool } from '../node-pool.js';
import { toBudget, toKubelet, toLimits, toRequirement, toTaint } from './convert-common.js';
import { dropUndefined } from './convert-node-class.js';
import type { Converted } from './convert-result.js';
import { emptyConverted } from './convert-result.js';
import {
  DEFAULT_BUDGETS,
  DEFAULT_EXPIRE_AFTER_MS,
  DEFAULT_WEIGHT,
  EC2_NODE_CLASS_GROUP,
  EC2_NODE_CLASS_KIND,
} from './defaults.js';
import { durationToMs } from './duration.js';
import type { NodePoolV1 } from './schema/v1.js';
import type { NodePoolV1beta1 } from './schema/v1beta1.js';
import { staticCapacityIssues } from './static-capacity.js';
import { unimplementedValueIssues } from './unimplemented-values.js';

type Template = NodePoolV1['spec']['template'];

function templateFields(template: Template | NodePoolV1beta1['spec']['template']) {
  const spec = template.spec;
  return {
    labels: { ...(template.metadata?.labels ?? {}) },
    annotations: { ...(template.metadata?.annotations ?? {}) },
    taints: (spec.taints ?? []).map(toTaint),
    startupTaints: (spec.startupTaints ?? []).map(toTaint),
    requirements: (spec.requirements ?? []).map(toRequirement),
  };
}

/** Converts a karpenter.sh/v1 NodePool or a joiner.sh/v1 NodePool. */
export function convertNodePoolV1(doc: NodePoolV1, source: DocumentSource): Converted {
  const out = emptyConverted();
  const spec = doc.spec;
  out.issues.push(...staticCapacityIssues(spec), ...unimplementedValueIssues(doc));
  const t = spec.template.spec;
  const d = spec.disruption;
  const pool: NodePool = {
    name: doc.metadata.name,
    source,
    weight: spec.weight ?? DEFAULT_WEIGHT,
    ...templateFields(spec.template),
    nodeClassRef: { ...t.nodeClassRef },
    expireAfterMs: t.expireAfter === undefined ? DEFAULT_EXPIRE_AFTER_MS : durationToMs(t.expireAfter),
    terminationGracePeriodMs:
      t.terminationGracePeriod === undefined
        ? undefined
        : (durationToMs(t.terminationGracePeriod) ?? undefined),
    limits: toLimits(spec.limits),
    disruption: {
      // Balanced is refused above (unimplementedValueIssues): the pool is not loaded.
      consolidationPolicy: d?.consolidationPolicy === 'WhenEmpty' ? 'WhenEmpty' : 'WhenEmptyOrUnderutilized',
      consolidateAfterMs: d?.consolidateAfter === undefined ? 0 : durationToMs(d.consolidateAfter),
      budgets: d?.budgets === undefined ? DEFAULT_BUDGETS : d.budgets.map(toBudget),
    },
    replicas: spec.replicas,
  };
  out.nodePools.push(dropUndefined(pool));
  return out;
}

function v1beta1Ref(doc: NodePoolV1beta1, out: Converted): NodeClassRef {
  const ref = doc.spec.template.spec.nodeClassRef;
  if (ref === undefined) {
    out.issues.push({
      severity: 'warning',
      path: 'spec.template.spec.nodeClassRef',
      message: 'nodeClassRef is not set: using the EC2NodeClass named "default"',
      hint: 'set nodeClassRef: { name: <EC2NodeClass name> }',
    });
    return { group: EC2_NODE_CLASS_GROUP, kind: EC2_NODE_CLASS_KIND, name: 'default' };
  }
  const group = ref.apiVersion === undefined ? EC2_NODE_CLASS_GROUP : ref.apiVersion.split('/')[0];
  return { group, kind: ref.kind ?? EC2_NODE_CLASS_KIND, name: ref.name };
}

/** Converts a karpenter.sh/v1beta1 NodePool (WhenUnderutilized becomes WhenEmptyOrUnderutilized). */
export function convertNodePoolV1beta1(doc: NodePoolV1beta1, source: DocumentSource): Converted {
  const out = emptyConverted();
  const spec = doc.spec;
  const d = spec.disruption;
  const kubelet = spec.template.spec.kubelet;
  const pool: NodePool = {
    name: doc.metadata.name,
    source,
    weight: spec.weight ?? DEFAULT_WEIGHT,
    ...templateFields(spec.template),
    nodeClassRef: v1beta1Ref(doc, out),
    expireAfterMs: d?.expireAfter === undefined ? DEFAULT_EXPIRE_AFTER_MS : durationToMs(d.expireAfter),
    limits: toLimits(spec.limits),
    disruption: {
      consolidationPolicy: d?.consolidationPolicy === 'WhenEmpty' ? 'WhenEmpty' : 'WhenEmptyOrUnderutilized',
      consolidateAfterMs: d?.consolidateAfter === undefined ? 0 : durationToMs(d.consolidateAfter),
      budgets: d?.budgets === undefined ? DEFAULT_BUDGETS : d.budgets.map(toBudget),
    },
    kubelet: kubelet === undefined ? undefined : toKubelet(kubelet),
  };
  out.nodePools.push(dropUndefined(pool));
  return out;
}
