import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Node } from 'constructs';
import type { LogLevel } from './constructs/handler-function.js';
import { checkNodeRoleArn } from './constructs/node-role.js';
import type { JoinerStackProps } from './joiner-stack.js';

/** The `cdk.json` context keys joiner reads. */
export const CONTEXT_KEYS = {
  clusterName: 'joiner:clusterName',
  account: 'joiner:account',
  region: 'joiner:region',
  clusterEndpoint: 'joiner:clusterEndpoint',
  clusterCertificateAuthority: 'joiner:clusterCertificateAuthority',
  kubernetesVersion: 'joiner:kubernetesVersion',
  serviceCidr: 'joiner:serviceCidr',
  vpcId: 'joiner:vpcId',
  nodePoolFiles: 'joiner:nodePoolFiles',
  batchingWindowSeconds: 'joiner:batchingWindowSeconds',
  logLevel: 'joiner:logLevel',
  lambdaGroup: 'joiner:lambdaGroup',
  stackName: 'joiner:stackName',
  nodeRoleArns: 'joiner:nodeRoleArns',
} as const;

const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/**
 * Reads joiner's configuration from CDK context (`cdk.json` or `-c key=value`). NodePool files
 * are read relative to `baseDir` (the directory `cdk` runs in). Every bad value is reported
 * with its context key.
 */
export function joinerPropsFromContext(node: Node, baseDir = process.cwd()): JoinerStackProps {
  const text = (key: string): string | undefined => {
    const value = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string')
      throw new Error(`context ${key} must be a string (got ${JSON.stringify(value)})`);
    return value;
  };
  const clusterName = text(CONTEXT_KEYS.clusterName);
  if (!clusterName) {
    throw new Error(
      `joiner: the EKS cluster name is missing. Set "${CONTEXT_KEYS.clusterName}" in cdk.json context ` +
        `or pass -c ${CONTEXT_KEYS.clusterName}=<name>.`,
    );
  }
  return {
    clusterName,
    env: { account: text(CONTEXT_KEYS.account), region: text(CONTEXT_KEYS.region) },
    stackName: text(CONTEXT_KEYS.stackName),
    clusterEndpoint: text(CONTEXT_KEYS.clusterEndpoint),
    clusterCertificateAuthority: text(CONTEXT_KEYS.clusterCertificateAuthority),
    kubernetesVersion: matching(
      text(CONTEXT_KEYS.kubernetesVersion),
      CONTEXT_KEYS.kubernetesVersion,
      VERSION,
    ),
    serviceCidr: matching(text(CONTEXT_KEYS.serviceCidr), CONTEXT_KEYS.serviceCidr, CIDR),
    vpcId: text(CONTEXT_KEYS.vpcId),
    documents: readDocuments(node.tryGetContext(CONTEXT_KEYS.nodePoolFiles), baseDir),
    provisioningBatchingWindowSeconds: seconds(node.tryGetContext(CONTEXT_KEYS.batchingWindowSeconds)),
    logLevel: logLevel(text(CONTEXT_KEYS.logLevel)),
    lambdaGroup: text(CONTEXT_KEYS.lambdaGroup),
    nodeRoleArns: nodeRoleArns(node.tryGetContext(CONTEXT_KEYS.nodeRoleArns)),
  };
}

/** `joiner:nodeRoleArns`: a list of IAM role ARNs, or one comma-separated string of them. */
function nodeRoleArns(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const key = CONTEXT_KEYS.nodeRoleArns;
  const arns = typeof value === 'string' ? value.split(',').map((a) => a.trim()) : value;
  if (!Array.isArray(arns) || arns.some((a) => typeof a !== 'string' || a === '')) {
    throw new Error(`context ${key} must be a list of IAM role ARNs or a comma-separated string of them`);
  }
  arns.forEach((arn: string, i) => {
    checkNodeRoleArn(arn, `context ${key}[${i}]`);
  });
  return arns;
}

function readDocuments(value: unknown, baseDir: string) {
  if (value === undefined || value === null || value === '') return [];
  const files = typeof value === 'string' ? value.split(',').map((f) => f.trim()) : value;
  if (!Array.isArray(files) || files.some((f) => typeof f !== 'string' || f === '')) {
    throw new Error(
      `context ${CONTEXT_KEYS.nodePoolFiles} must be a list of file paths or a comma-separated string`,
    );
  }
  return files.map((file: string) => {
    try {
      return { file, content: readFileSync(resolve(baseDir, file), 'utf8') };
    } catch (error) {
      throw new Error(
        `context ${CONTEXT_KEYS.nodePoolFiles}: cannot read ${file}: ${(error as Error).message}`,
      );
    }
  });
}

const VERSION = { pattern: /^1\.\d{1,3}$/, what: 'a Kubernetes minor version like 1.31' };
const CIDR = { pattern: /^[0-9A-Fa-f.:]+\/\d{1,3}$/, what: 'a CIDR like 172.20.0.0/16 or fd00::/108' };

function matching(
  value: string | undefined,
  key: string,
  format: { pattern: RegExp; what: string },
): string | undefined {
  if (value !== undefined && !format.pattern.test(value)) {
    throw new Error(`context ${key} must be ${format.what} (got '${value}')`);
  }
  return value;
}

function seconds(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 300) {
    throw new Error(
      `context ${CONTEXT_KEYS.batchingWindowSeconds} must be whole seconds in 0..300 (got ${JSON.stringify(value)})`,
    );
  }
  return n;
}

function logLevel(value: string | undefined): LogLevel | undefined {
  if (value === undefined) return undefined;
  const upper = value.toUpperCase() as LogLevel;
  if (!LOG_LEVELS.includes(upper)) {
    throw new Error(
      `context ${CONTEXT_KEYS.logLevel} must be one of ${LOG_LEVELS.join(', ')} (got '${value}')`,
    );
  }
  return upper;
}
