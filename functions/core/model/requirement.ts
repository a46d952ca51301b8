/** Node selector operators, including Karpenter's Gte/Lte. */
export type RequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';

/** One node requirement as written in a NodePool / Provisioner / pod node affinity. */
export interface Requirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values: readonly string[];
  /** Karpenter v1: the minimum number of distinct values the launched options must cover. */
  readonly minValues?: number;
}
