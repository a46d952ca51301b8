import type {
  BlockDeviceMapping,
  KubeletConfiguration,
  MetadataOptions,
  SelectorTerm,
} from '../node-class.js';
import type { DisruptionBudget, DisruptionReason } from '../node-pool.js';
import { parseResource } from '../quantity.js';
import type { Requirement, RequirementOperator } from '../requirement.js';
import type { Resources } from '../resources.js';
import type { Taint } from '../taint.js';
import { DEFAULT_METADATA_OPTIONS } from './defaults.js';
import { durationToMs } from './duration.js';

/** Converts a validated requirement (values become strings). */
export function toRequirement(r: {
  key: string;
  operator: string;
  values?: (string | number)[];
  minValues?: number;
}): Requirement {
  const out: Requirement = {
    key: r.key,
    operator: r.operator as RequirementOperator,
    values: (r.values ?? []).map((v) => String(v).trim()),
  };
  return r.minValues === undefined ? out : { ...out, minValues: r.minValues };
}

/** Converts a validated taint (drops `timeAdded`). */
export function toTaint(t: { key: string; value?: string; effect: Taint['effect'] }): Taint {
  return t.value === undefined
    ? { key: t.key, effect: t.effect }
    : { key: t.key, value: t.value, effect: t.effect };
}

/** Parses `key=value:Effect` (or `key:Effect`) into a taint. */
export function parseTaintString(text: string): Taint {
  const colon = text.lastIndexOf(':');
  const effect = text.slice(colon + 1) as Taint['effect'];
  const [key, value] = text.slice(0, colon).split('=', 2);
  return value === undefined ? { key, effect } : { key, value, effect };
}

/** Converts resource limits into canonical units (cpu millicores, bytes, counts). */
export function toLimits(limits: Record<string, string | number> | undefined): Partial<Resources> {
  const out: Partial<Resources> = {};
  for (const [name, q] of Object.entries(limits ?? {})) out[name] = parseResource(name, q);
  return out;
}

/** Converts a disruption budget. */
export function toBudget(b: {
  nodes: string | number;
  schedule?: string;
  duration?: string | number;
  reasons?: DisruptionReason[];
}): DisruptionBudget {
  const nodesText = String(b.nodes);
  const nodes = nodesText.endsWith('%')
    ? { percent: Number(nodesText.slice(0, -1)) }
    : { count: Number(nodesText) };
  const out: { -readonly [K in keyof DisruptionBudget]: DisruptionBudget[K] } = { nodes };
  if (b.schedule !== undefined) out.schedule = b.schedule;
  if (b.duration !== undefined) out.durationMs = durationToMs(b.duration) ?? undefined;
  if (b.reasons !== undefined) out.reasons = b.reasons;
  return out;
}

/** Converts a selector term (`ownerID` becomes `ownerId`). */
export function toSelectorTerm(t: {
  tags?: Record<string, string>;
  id?: string;
  name?: string;
  ownerID?: string;
  instanceMatchCriteria?: string;
}): SelectorTerm {
  const out: { -readonly [K in keyof SelectorTerm]: SelectorTerm[K] } = {};
  if (t.tags !== undefined) out.tags = { ...t.tags };
  if (t.id !== undefined) out.id = t.id;
  if (t.name !== undefined) out.name = t.name;
  if (t.ownerID !== undefined) out.ownerId = t.ownerID;
  if (t.instanceMatchCriteria !== undefined) out.instanceMatchCriteria = t.instanceMatchCriteria;
  return out;
}

const ID_KEYS = new Set(['aws-ids', 'aws::ids']);

/**
 * Converts a v1alpha5 selector map (`subnetSelector`, `securityGroupSelector`) into selector terms:
 * `aws-ids` / `aws::ids` (comma-separated) become one id term each, the other keys one tags term.
 */
export function selectorMapToTerms(map: Record<string, string> | undefined): SelectorTerm[] {
  if (map === undefined) return [];
  const terms: SelectorTerm[] = [];
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    if (ID_KEYS.has(key)) {
      for (const id of value.split(',').map((s) => s.trim())) if (id !== '') terms.push({ id });
    } else tags[key] = value;
  }
  if (Object.keys(tags).length > 0) terms.push({ tags });
  return terms;
}

type Quantity = string | number;

function stringMap(m: Record<string, Quantity> | undefined): Record<string, string> | undefined {
  if (m === undefined) return undefined;
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)]));
}

/** Converts kubelet settings (quantities kept as strings, as the model documents). */
export function toKubelet(k: Record<string, unknown> | undefined): KubeletConfiguration {
  if (k === undefined) return {};
  const out: Record<string, unknown> = { ...k };
  for (const key of ['systemReserved', 'kubeReserved', 'evictionSoftGracePeriod']) {
    if (out[key] !== undefined) out[key] = stringMap(out[key] as Record<string, Quantity>);
  }
  return out as KubeletConfiguration;
}

/** Applies the default metadata options to what the document sets. */
export function toMetadataOptions(m: Partial<MetadataOptions> | undefined): MetadataOptions {
  return { ...DEFAULT_METADATA_OPTIONS, ...(m ?? {}) };
}

/** Converts block device mappings (volume sizes kept as strings). */
export function toBlockDeviceMappings(
  list: { deviceName: string; rootVolume?: boolean; ebs?: Record<string, unknown> }[] | undefined,
): BlockDeviceMapping[] {
  return (list ?? []).map((b) => {
    if (b.ebs === undefined) return { ...b } as BlockDeviceMapping;
    const ebs = { ...b.ebs };
    if (ebs.volumeSize !== undefined) ebs.volumeSize = String(ebs.volumeSize);
    return { ...b, ebs } as BlockDeviceMapping;
  });
}
