/**
 * The account a simulation runs in: joiner's stack synthesized for the simulated cluster, region
 * and node roles (or an already synthesized template), enforced by the account's IAM.
 */
import { defaultTopology } from '../ec2/topology.js';
import type { ObservedDecision } from '../iam/authorization/account-authorizer.js';
import type { AccountIdentity } from '../iam/authorization/account-identity.js';
import { loadStackTemplate } from '../iam/authorization/stack-template-file.js';
import { stackAccount } from './stack-account.js';
import { synthesizeStack } from './synthesize-stack.js';

/** Options of {@link deployedAccount}. */
export interface DeployedAccountOptions {
  readonly clusterName: string;
  readonly region: string;
  /** `joiner:nodeRoleArns` of the synthesized stack. */
  readonly nodeRoleArns?: readonly string[];
  /** `joiner:ebsKmsKeyArns` of the synthesized stack. */
  readonly ebsKmsKeyArns?: readonly string[];
  /** A synthesized template (file or `cdk synth -o DIR`) to use instead of synthesizing. */
  readonly stackTemplate?: string;
  /** Virtual time. */
  readonly clock: () => number;
  /** Sees every request the account decides. */
  readonly onDecision?: (observed: ObservedDecision) => void;
}

/** The account of the deployed stack (throws TemplateError naming the file for a bad template). */
export async function deployedAccount(options: DeployedAccountOptions): Promise<AccountIdentity> {
  const account = defaultTopology(options.clusterName, options.region).accountId;
  const loaded = options.stackTemplate
    ? loadStackTemplate(options.stackTemplate)
    : {
        file: 'the synthesized stack',
        template: await synthesizeStack({
          clusterName: options.clusterName,
          region: options.region,
          account,
          nodeRoleArns: options.nodeRoleArns,
          ebsKmsKeyArns: options.ebsKmsKeyArns,
        }),
      };
  return stackAccount({
    template: loaded.template as Record<string, unknown>,
    source: loaded.file,
    clusterName: options.clusterName,
    region: options.region,
    account,
    clock: options.clock,
    onDecision: options.onDecision,
  });
}
