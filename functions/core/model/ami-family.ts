import type { AmiFamily, AmiSelectorTerm } from './node-class.js';

/** The AMI family each Karpenter v1 alias family names (`al2023@latest` -> AL2023). */
export const ALIAS_FAMILIES: Readonly<Record<string, AmiFamily>> = {
  al2: 'AL2',
  al2023: 'AL2023',
  bottlerocket: 'Bottlerocket',
  windows2019: 'Windows2019',
  windows2022: 'Windows2022',
  windows2025: 'Windows2025',
};

/** The family part of an alias (`Bottlerocket@v1.20.0` -> `bottlerocket`). */
export function aliasFamilyName(alias: string): string {
  return alias.split('@')[0].toLowerCase();
}

/**
 * The AMI family nodes of a NodeClass boot: `amiFamily` when written, else the family of its alias
 * term; undefined when neither says (Karpenter v1 then requires amiFamily, joiner uses AL2023).
 */
export function nodeClassAmiFamily(nodeClass: {
  readonly amiFamily?: AmiFamily;
  readonly amiSelectorTerms: readonly AmiSelectorTerm[];
}): AmiFamily | undefined {
  if (nodeClass.amiFamily) return nodeClass.amiFamily;
  const alias = nodeClass.amiSelectorTerms.find((t) => t.alias)?.alias;
  return alias ? ALIAS_FAMILIES[aliasFamilyName(alias)] : undefined;
}
