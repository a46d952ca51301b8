import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';

/** Stand-in code so construct tests do not bundle the handlers (the whole-stack test does). */
export const stubCode = (): Code => Code.fromInline('exports.handler = async () => undefined;');

/** A bare stack in a fixed account and region, as the construct tests use. */
export function bareStack(): Stack {
  return new Stack(new App(), 'Test', { env: { account: '111111111111', region: 'us-west-2' } });
}

/** What the synth reported about `stack` above info level: cdk-nag findings, warnings, errors. */
export function findingsOf(assembly: CloudAssembly, stack: Stack) {
  return assembly.getStackArtifact(stack.artifactId).messages.filter((m) => m.level !== 'info');
}

/** Every resource of a type, as [logicalId, resource] pairs. */
export function resourcesOf(
  template: Template,
  type: string,
): [string, { Properties: Record<string, never> }][] {
  return Object.entries(template.findResources(type)) as never;
}

/** An IAM policy statement as it appears in a template. */
export interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** Every statement of every IAM policy (inline and managed) in the template. */
export function statementsOf(template: Template): Statement[] {
  return ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].flatMap((type) =>
    resourcesOf(template, type).flatMap(
      ([, r]) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
    ),
  );
}

/** The actions of a statement as a list. */
export const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
