import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { Node } from 'constructs';
import { JOINER_API_GROUP } from '../functions/core/install/kube-manifest.js';
import { installsJoinerNodePools } from '../functions/core/install/manifests.js';
import { nodeRoleProblem, parseRoleReference } from '../functions/core/launch/node-role.js';
import { formatDiagnostic } from '../functions/core/model/config/diagnostic.js';
import { type KarpenterKinds, parseKarpenterKinds } from '../functions/core/model/config/karpenter-kinds.js';
import { loadDocuments } from '../functions/core/model/config/load.js';
import { parseYamlDocuments } from '../functions/core/model/config/raw-document.js';
import { type BatchWindow, parseBatchWindow } from '../functions/core/provisioning/batch-window.js';
import { EVENT_SOURCES } from '../functions/shared/event-sources.js';
import { closestKey } from './closest-key.js';
import type { ClusterDocument } from './constructs/cluster-installer.js';
import type { LogLevel } from './constructs/handler-function.js';
import { checkNodeRoleArn } from './constructs/node-role.js';
import { parseReservedConcurrency, type ReservedConcurrency } from './constructs/reserved-concurrency.js';
import { ebsKmsKeyArnProblem, isGrantedKey, nodeClassKmsKeys } from './ebs-kms-keys.js';
import type { JoinerStackProps } from './joiner-stack.js';
import { ssmParameterNameProblem } from './ssm-parameter-names.js';

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
  batchIdleSeconds: 'joiner:batchIdleSeconds',
  batchMaxSeconds: 'joiner:batchMaxSeconds',
  webhookSecretRotation: 'joiner:webhookSecretRotation',
  logLevel: 'joiner:logLevel',
  lambdaGroup: 'joiner:lambdaGroup',
  stackName: 'joiner:stackName',
  nodeRoleArns: 'joiner:nodeRoleArns',
  alarmEmail: 'joiner:alarmEmail',
  alarmTopicArn: 'joiner:alarmTopicArn',
  karpenterKinds: 'joiner:karpenterKinds',
  reservedConcurrency: 'joiner:reservedConcurrency',
  functionSubnetIds: 'joiner:functionSubnetIds',
  clusterSecurityGroupId: 'joiner:clusterSecurityGroupId',
  ssmParameterNames: 'joiner:ssmParameterNames',
  ebsKmsKeyArns: 'joiner:ebsKmsKeyArns',
} as const;

/**
 * A mistake in the user's configuration (context values or NodePool files): one message per
 * problem, each naming the context key, or the file, document and field. The CDK app prints the
 * messages, without a stack trace, and exits non-zero.
 */
export class ContextError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `joiner: ${problems.length} problem(s) in the configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ContextError';
  }
}

/** Configuration read from context, and the warnings worth showing at synth. */
export interface ContextProps extends JoinerStackProps {
  /** Warnings of the NodePool files (`joiner validate` prints the same ones). */
  readonly warnings: readonly string[];
  /** Address that gets the alarm notifications (an SNS topic with this subscription is created). */
  readonly alarmEmail?: string;
  /** Existing SNS topic the alarms notify. */
  readonly alarmTopicArn?: string;
}

const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/** A format a context value must have, and how it is described in messages. */
interface Format {
  readonly pattern: RegExp;
  readonly what: string;
}

const FORMATS = {
  clusterName: {
    pattern: /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/,
    what: "an EKS cluster name (1-100 letters, digits, '-' or '_', starting with a letter or digit)",
  },
  account: { pattern: /^\d{12}$/, what: 'a 12-digit AWS account id like 111111111111' },
  region: { pattern: /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, what: 'an AWS region like us-west-2' },
  clusterEndpoint: {
    pattern: /^https:\/\/[A-Za-z0-9.-]+(:\d+)?\/?$/,
    what: 'the https URL of the API server, like https://ABC123.gr7.us-west-2.eks.amazonaws.com',
  },
  clusterCertificateAuthority: {
    pattern: /^[A-Za-z0-9+/]+={0,2}$/,
    what: "the cluster's base64 certificate authority data (as eks describe-cluster prints it)",
  },
  kubernetesVersion: { pattern: /^1\.\d{1,3}$/, what: 'a Kubernetes minor version like 1.31' },
  serviceCidr: {
    pattern: /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9A-Fa-f:]+\/\d{1,3})$/,
    what: 'a CIDR like 172.20.0.0/16 or fd00::/108',
  },
  vpcId: { pattern: /^vpc-([0-9a-f]{8}|[0-9a-f]{17})$/, what: 'a VPC id like vpc-0123456789abcdef0' },
  clusterSecurityGroupId: {
    pattern: /^sg-([0-9a-f]{8}|[0-9a-f]{17})$/,
    what: 'the cluster security group id like sg-0123456789abcdef0',
  },
  lambdaGroup: {
    pattern: /^[A-Za-z0-9]([A-Za-z0-9:._-]{0,61}[A-Za-z0-9])?$/,
    what: "a Kubernetes group name (1-63 letters, digits, ':', '.', '_' or '-')",
  },
  stackName: {
    pattern: /^[A-Za-z][A-Za-z0-9-]{0,127}$/,
    what: "a CloudFormation stack name (1-128 letters, digits or '-', starting with a letter)",
  },
  alarmEmail: { pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, what: 'an email address like ops@example.com' },
  alarmTopicArn: {
    pattern: /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
    what: 'an SNS topic ARN like arn:aws:sns:us-west-2:111111111111:oncall',
  },
} satisfies Partial<Record<keyof typeof CONTEXT_KEYS, Format>>;

/** What a provisioning batch of more than 10 messages needs (AWS Lambda's rule for SQS sources). */
const WINDOW = { min: 1, max: 300 } as const;
const PROVISIONING_BATCH = EVENT_SOURCES.find((s) => s.queue === 'provisioning')?.batchSize ?? 0;

/**
 * Reads joiner's configuration from CDK context (`cdk.json` or `-c key=value`). NodePool files are
 * read relative to `baseDir` (the directory `cdk` runs in) and checked with the loader of
 * `joiner validate`. Every problem is collected; when there is any, a {@link ContextError} lists
 * them all, each with its context key (or file, document and field) and the allowed values.
 */
export function joinerPropsFromContext(node: Node, baseDir = process.cwd()): ContextProps {
  const problems: string[] = [];
  const problem = (key: string, message: string) => problems.push(`${key}: ${message}`);
  for (const key of unknownKeys(node)) {
    const meant = closestKey(key, Object.values(CONTEXT_KEYS));
    problem(
      key,
      meant
        ? `is not a joiner context key: did you mean ${meant}?`
        : `is not a joiner context key (known: ${Object.values(CONTEXT_KEYS).join(', ')})`,
    );
  }
  const text = (name: keyof typeof CONTEXT_KEYS): string | undefined => {
    const key = CONTEXT_KEYS[name];
    const value = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') {
      problem(key, `must be a string (got ${JSON.stringify(value)})`);
      return undefined;
    }
    const format: Format | undefined = (FORMATS as Partial<Record<string, Format>>)[name];
    if (format && !format.pattern.test(value)) {
      problem(key, `must be ${format.what} (got '${value}')`);
      return undefined;
    }
    return value;
  };
  const clusterName = text('clusterName');
  if (clusterName === undefined && !problems.some((p) => p.startsWith(`${CONTEXT_KEYS.clusterName}:`))) {
    problem(
      CONTEXT_KEYS.clusterName,
      'the EKS cluster name is missing. Set it in cdk.json context or pass -c joiner:clusterName=<name>',
    );
  }
  const alarmEmail = text('alarmEmail');
  const alarmTopicArn = text('alarmTopicArn');
  if (alarmEmail && alarmTopicArn) {
    problem(CONTEXT_KEYS.alarmEmail, `set either it or ${CONTEXT_KEYS.alarmTopicArn}, not both`);
  }
  const kinds = karpenterKinds(node.tryGetContext(CONTEXT_KEYS.karpenterKinds), problems);
  const props: ContextProps = {
    clusterName: clusterName ?? '',
    env: { account: text('account'), region: text('region') },
    stackName: text('stackName'),
    clusterEndpoint: text('clusterEndpoint'),
    clusterCertificateAuthority: text('clusterCertificateAuthority'),
    kubernetesVersion: text('kubernetesVersion'),
    serviceCidr: text('serviceCidr'),
    vpcId: text('vpcId'),
    provisioningBatchingWindowSeconds: batchingWindow(
      node.tryGetContext(CONTEXT_KEYS.batchingWindowSeconds),
      problem,
    ),
    batchWindow: batchWindow(node, problems),
    webhookSecretRotation: rotationLabel(node.tryGetContext(CONTEXT_KEYS.webhookSecretRotation), problem),
    logLevel: logLevel(node.tryGetContext(CONTEXT_KEYS.logLevel), problem),
    lambdaGroup: text('lambdaGroup'),
    nodeRoleArns: nodeRoleArns(node.tryGetContext(CONTEXT_KEYS.nodeRoleArns), problems),
    karpenterKinds: kinds,
    reservedConcurrency: reservedConcurrency(node.tryGetContext(CONTEXT_KEYS.reservedConcurrency), problems),
    functionSubnetIds: subnetIds(node.tryGetContext(CONTEXT_KEYS.functionSubnetIds), problems),
    clusterSecurityGroupId: text('clusterSecurityGroupId'),
    ssmParameterNames: ssmParameterNames(node.tryGetContext(CONTEXT_KEYS.ssmParameterNames), problems),
    ebsKmsKeyArns: ebsKmsKeyArns(node.tryGetContext(CONTEXT_KEYS.ebsKmsKeyArns), problems),
    alarmEmail,
    alarmTopicArn,
    ...nodePoolDocuments(node.tryGetContext(CONTEXT_KEYS.nodePoolFiles), baseDir, problems, kinds),
  };
  if (props.documents && props.documents.length > 0) {
    const roles = passableRoleProblems(props.documents, props.nodeRoleArns, props.stackName ?? 'Joiner');
    problems.push(...roles.errors);
    (props.warnings as string[]).push(...roles.warnings);
    (props.warnings as string[]).push(...ungrantedKmsKeyWarnings(props.documents, props.ebsKmsKeyArns ?? []));
  }
  if (problems.length > 0) throw new ContextError(problems);
  return props;
}

/** `joiner:karpenterKinds`: `manage` or `ignore`; unset keeps the functions' default (`manage`). */
function karpenterKinds(value: unknown, problems: string[]): KarpenterKinds | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const key = CONTEXT_KEYS.karpenterKinds;
  try {
    if (typeof value !== 'string') throw new Error(`${key} must be a string (got ${JSON.stringify(value)})`);
    return parseKarpenterKinds(value, key);
  } catch (error) {
    problems.push((error as Error).message.replace(`${key} `, `${key}: `));
    return undefined;
  }
}

/**
 * NodeClasses of the NodePool files whose `role` joiner may not pass: not in
 * `joiner:nodeRoleArns` (at run time their launches are refused, so synth fails instead). The
 * stack's own node role gets a name CloudFormation generates (`<stack name>-...`), unknown at
 * synth: a role named like it is only a warning. Leaving `role` out uses the stack's node role.
 */
function passableRoleProblems(
  documents: readonly ClusterDocument[],
  nodeRoleArns: readonly string[] | undefined,
  stackName: string,
): { errors: string[]; warnings: string[] } {
  const key = CONTEXT_KEYS.nodePoolFiles;
  const errors: string[] = [];
  const warnings: string[] = [];
  const loaded = loadDocuments(documents.flatMap((d) => parseYamlDocuments(d.file, d.content).documents));
  for (const nodeClass of loaded.nodeClasses) {
    const problem = nodeRoleProblem(nodeClass, nodeRoleArns ?? []);
    if (!problem || nodeClass.role === undefined) continue;
    const { file, kind, name } = nodeClass.source;
    const where = `${key}: ${file}: ${kind}/${name}: spec.role`;
    const fix = `add its ARN to ${CONTEXT_KEYS.nodeRoleArns} (and give it an EKS access entry of type EC2_LINUX), or leave role out to use the stack's node role`;
    let roleName = '';
    try {
      roleName = parseRoleReference(nodeClass.role).name;
    } catch {
      // nodeRoleProblem reported the malformed reference.
    }
    if (roleName.startsWith(`${stackName}-`))
      warnings.push(`${where}: ${nodeClass.role} may be the stack's own node role; otherwise ${fix}`);
    else errors.push(`${where}: ${problem}: joiner would refuse to launch its nodes; ${fix}`);
  }
  return { errors, warnings };
}

/** `joiner:ssmParameterNames`: SSM parameter names (or `path/*`), a list or one comma-separated string. */
function ssmParameterNames(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const key = CONTEXT_KEYS.ssmParameterNames;
  const names = typeof value === 'string' ? value.split(',').map((n) => n.trim()) : value;
  if (!Array.isArray(names)) {
    problems.push(
      `${key}: must be a list of SSM parameter names like /my-team/amis/node, or a comma-separated string of them (got ${JSON.stringify(value)})`,
    );
    return undefined;
  }
  const bad = names.flatMap((name, i) => {
    const problem = ssmParameterNameProblem(name);
    return problem ? [`${key}[${i}]: ${JSON.stringify(name)} ${problem}`] : [];
  });
  problems.push(...bad);
  return bad.length > 0 ? undefined : (names as string[]);
}

/** `joiner:ebsKmsKeyArns`: KMS key ARNs, a list or one comma-separated string. */
function ebsKmsKeyArns(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const key = CONTEXT_KEYS.ebsKmsKeyArns;
  const arns = typeof value === 'string' ? value.split(',').map((n) => n.trim()) : value;
  if (!Array.isArray(arns)) {
    problems.push(
      `${key}: must be a list of KMS key ARNs like arn:aws:kms:us-west-2:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab, or a comma-separated string of them (got ${JSON.stringify(value)})`,
    );
    return undefined;
  }
  const bad = arns.flatMap((arn, i) => {
    const problem = ebsKmsKeyArnProblem(arn);
    return problem ? [`${key}[${i}]: ${JSON.stringify(arn)} ${problem}`] : [];
  });
  problems.push(...bad);
  return bad.length > 0 ? undefined : (arns as string[]);
}

/**
 * EC2NodeClasses of the NodePool files whose volumes name a `kmsKeyID` not in
 * `joiner:ebsKmsKeyArns`: a warning, not a refusal, as the key's own policy may allow the
 * controller role (then nothing is missing); otherwise every launch is terminated moments later
 * (state reason Client.InternalError).
 */
function ungrantedKmsKeyWarnings(documents: readonly ClusterDocument[], arns: readonly string[]): string[] {
  const loaded = loadDocuments(documents.flatMap((d) => parseYamlDocuments(d.file, d.content).documents));
  return loaded.nodeClasses.flatMap((nodeClass) => {
    const { file, kind, name } = nodeClass.source;
    return nodeClassKmsKeys(nodeClass)
      .filter((k) => !isGrantedKey(k, arns))
      .map(
        (k) =>
          `${CONTEXT_KEYS.nodePoolFiles}: ${file}: ${kind}/${name}: spec.blockDeviceMappings kmsKeyID ${k} is not in ${CONTEXT_KEYS.ebsKmsKeyArns}: unless the key's policy lets the controller role use it through EC2, EC2 terminates every instance of this NodeClass moments after launch (Client.InternalError); add the key's ARN to ${CONTEXT_KEYS.ebsKmsKeyArns}`,
      );
  });
}

/** `joiner:functionSubnetIds`: subnet ids, as a list or one comma-separated string. */
function subnetIds(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ids = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (
    !Array.isArray(ids) ||
    ids.some((id) => typeof id !== 'string' || !/^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id))
  ) {
    problems.push(
      `${CONTEXT_KEYS.functionSubnetIds}: must be subnet ids like subnet-0123456789abcdef0, as a list or comma-separated (got ${JSON.stringify(value)})`,
    );
    return undefined;
  }
  return ids as string[];
}

/** `joiner:reservedConcurrency`: `none`, `recommended` or function=count pairs; unset is `none`. */
function reservedConcurrency(value: unknown, problems: string[]): ReservedConcurrency | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    return parseReservedConcurrency(value, CONTEXT_KEYS.reservedConcurrency);
  } catch (error) {
    problems.push((error as Error).message);
    return undefined;
  }
}

/** `joiner:nodeRoleArns`: a list of IAM role ARNs, or one comma-separated string of them. */
function nodeRoleArns(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const key = CONTEXT_KEYS.nodeRoleArns;
  const arns = typeof value === 'string' ? value.split(',').map((a) => a.trim()) : value;
  if (!Array.isArray(arns) || arns.some((a) => typeof a !== 'string' || a === '')) {
    problems.push(`${key}: must be a list of IAM role ARNs or a comma-separated string of them`);
    return undefined;
  }
  for (const [i, arn] of (arns as string[]).entries()) {
    try {
      checkNodeRoleArn(arn, `${key}[${i}]`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return arns;
}

function unknownKeys(node: Node): string[] {
  const known = new Set<string>(Object.values(CONTEXT_KEYS));
  const all = node.getAllContext() as Record<string, unknown>;
  return Object.keys(all).filter((key) => key.startsWith('joiner:') && !known.has(key));
}

/**
 * Reads the NodePool files and checks them as `joiner validate` does: YAML syntax, every document
 * a valid NodePool / NodeClass (any supported version) or workload, and the cross-checks between
 * them. Errors are problems (`file: Kind/name: field: message`); warnings are returned.
 */
function nodePoolDocuments(
  value: unknown,
  baseDir: string,
  problems: string[],
  kinds: KarpenterKinds | undefined,
): { documents: ClusterDocument[]; warnings: string[] } {
  const key = CONTEXT_KEYS.nodePoolFiles;
  if (value === undefined || value === null || value === '') return { documents: [], warnings: [] };
  const files = typeof value === 'string' ? value.split(',').map((f) => f.trim()) : value;
  if (!Array.isArray(files) || files.some((f) => typeof f !== 'string' || f === '')) {
    problems.push(
      `${key}: must be a list of file paths or a comma-separated string (got ${JSON.stringify(value)})`,
    );
    return { documents: [], warnings: [] };
  }
  const documents: ClusterDocument[] = [];
  const foreign: string[] = [];
  for (const file of expandDirectories(files as string[], baseDir, problems)) {
    try {
      documents.push({ file, content: readFileSync(resolve(baseDir, file), 'utf8') });
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      problems.push(`${key}: cannot read ${file} (relative to ${baseDir}): ${reason}`);
    }
  }
  const parsed = documents.map((d) => parseYamlDocuments(d.file, d.content));
  const loaded = loadDocuments(parsed.flatMap((p) => p.documents));
  const diagnostics = [...parsed.flatMap((p) => p.diagnostics), ...loaded.diagnostics];
  for (const d of diagnostics.filter((x) => x.severity === 'error')) {
    problems.push(`${key}: ${formatDiagnostic(d)}`);
  }
  parsed.forEach((p, i) => {
    if (p.documents.length === 0 && p.diagnostics.length === 0)
      problems.push(`${key}: ${documents[i]?.file}: holds no YAML document`);
  });
  for (const { source, ok } of loaded.documents) {
    const where = `${key}: ${source.file}: ${source.kind}/${source.name}`;
    if (!ok) continue;
    if (
      source.apiVersion === `${JOINER_API_GROUP}/v1` &&
      source.kind === 'NodePool' &&
      !installsJoinerNodePools(kinds)
    ) {
      problems.push(
        `${where}: ${source.apiVersion} NodePool is installed only with ${CONTEXT_KEYS.karpenterKinds}=ignore (beside a running Karpenter): write it as karpenter.sh/v1 NodePool, which joiner manages`,
      );
    } else if (!JOINER_SERVED.has(`${source.apiVersion} ${source.kind}`)) {
      foreign.push(
        `${where}: ${source.apiVersion} is applied only where Karpenter's CRDs serve it (the ones joiner installs where Karpenter is absent serve karpenter.sh/v1 and karpenter.k8s.aws/v1, as Karpenter v1.1 and later do); write it as v1 otherwise`,
      );
    }
  }
  const warnings = diagnostics
    .filter((x) => x.severity === 'warning')
    .map((x) => `${key}: ${formatDiagnostic(x)}`);
  return { documents, warnings: [...warnings, ...foreign] };
}

/** The kinds whose CRDs joiner installs (Karpenter's where absent): they apply on any cluster. */
const JOINER_SERVED = new Set([
  'karpenter.sh/v1 NodePool',
  'karpenter.k8s.aws/v1 EC2NodeClass',
  'karpenter.sh/v1alpha1 NodeOverlay',
  `${JOINER_API_GROUP}/v1 NodePool`,
  `${JOINER_API_GROUP}/v1 NodeClass`,
]);

const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * The files to read: a directory stands for its .yaml / .yml / .json files, recursively, in name
 * order, as with `joiner validate -f DIR`.
 */
function expandDirectories(paths: readonly string[], baseDir: string, problems: string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    let isDirectory = false;
    try {
      isDirectory = statSync(resolve(baseDir, path)).isDirectory();
    } catch {
      // Reported when the file is read.
    }
    if (!isDirectory) {
      out.push(path);
      continue;
    }
    const found = readdirSync(resolve(baseDir, path), { recursive: true, encoding: 'utf8' })
      .filter((f) => DOCUMENT_EXTENSIONS.has(extname(f).toLowerCase()))
      .map((f) => join(path, f))
      .filter((f) => statSync(resolve(baseDir, f)).isFile())
      .sort();
    if (found.length === 0)
      problems.push(`${CONTEXT_KEYS.nodePoolFiles}: directory ${path} holds no .yaml, .yml or .json files`);
    out.push(...found);
  }
  return out;
}

function batchingWindow(value: unknown, problem: (key: string, message: string) => void): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < WINDOW.min || n > WINDOW.max) {
    problem(
      CONTEXT_KEYS.batchingWindowSeconds,
      `must be whole seconds in ${WINDOW.min}..${WINDOW.max} (got ${JSON.stringify(value)}): SQS allows at ` +
        `most ${WINDOW.max}, and the provisioning queue hands up to ${PROVISIONING_BATCH} pods to one plan, ` +
        `which Lambda only allows with a batching window of at least ${WINDOW.min} s`,
    );
    return undefined;
  }
  return n;
}

/** `joiner:batchIdleSeconds` / `joiner:batchMaxSeconds`; unset keeps the functions' defaults (1 s / 10 s). */
function batchWindow(node: Node, problems: string[]): BatchWindow | undefined {
  const idle = node.tryGetContext(CONTEXT_KEYS.batchIdleSeconds);
  const max = node.tryGetContext(CONTEXT_KEYS.batchMaxSeconds);
  const unset = (v: unknown) => v === undefined || v === null || v === '';
  if (unset(idle) && unset(max)) return undefined;
  try {
    return parseBatchWindow(idle, max, {
      idle: CONTEXT_KEYS.batchIdleSeconds,
      max: CONTEXT_KEYS.batchMaxSeconds,
    });
  } catch (error) {
    problems.push((error as Error).message.replace(/^(joiner:\w+) /, '$1: '));
    return undefined;
  }
}

/** `joiner:webhookSecretRotation`: any label (a date, a counter) of at most 64 printable characters. */
function rotationLabel(value: unknown, problem: (key: string, message: string) => void): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(text)) {
    problem(
      CONTEXT_KEYS.webhookSecretRotation,
      `must be a label of 1 to 64 printable characters such as 2026-11-25 (got ${JSON.stringify(value)})`,
    );
    return undefined;
  }
  return text;
}

function logLevel(value: unknown, problem: (key: string, message: string) => void): LogLevel | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const upper = typeof value === 'string' ? (value.toUpperCase() as LogLevel) : undefined;
  if (upper === undefined || !LOG_LEVELS.includes(upper)) {
    problem(CONTEXT_KEYS.logLevel, `must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(value)})`);
    return undefined;
  }
  return upper;
}
