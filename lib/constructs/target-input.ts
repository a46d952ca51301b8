import type { CfnRule, Rule } from 'aws-cdk-lib/aws-events';
import type { TargetInput } from '../../functions/shared/target-input.js';

/**
 * Writes a shared description's target input (`Input` / `InputPath` / `InputTransformer`) into the
 * rule's only target, exactly as the simulated EventBridge applies it. No input: the target keeps
 * the whole event.
 */
export function applyTargetInput(rule: Rule, input: TargetInput | undefined): void {
  if (input === undefined) return;
  const cfn = rule.node.defaultChild as CfnRule;
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined) cfn.addPropertyOverride(`Targets.0.${field}`, value);
  }
}
