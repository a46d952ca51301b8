/**
 * Reads what a node's user data asks of the kubelet, in the three real formats joiner writes:
 * AL2023 (MIME multipart with a `node.eks.aws/v1alpha1` NodeConfig part), Bottlerocket (TOML
 * settings) and AL2 (`/etc/eks/bootstrap.sh` with `--kubelet-extra-args`).
 */
import { parseAllDocuments } from 'yaml';
import type { Taint } from '../../../core/model/taint.js';
import { parseKubeletFlags, parseTaint, shellWords } from './kubelet-flags.js';
import { parseTomlSubset } from './toml-subset.js';

/** What the kubelet registers with. */
export interface NodeBootstrap {
  readonly format: 'AL2023' | 'Bottlerocket' | 'AL2';
  readonly clusterName?: string;
  readonly apiServerEndpoint?: string;
  readonly labels: Record<string, string>;
  readonly taints: Taint[];
  readonly maxPods?: number;
  /** The NodeConfig `spec.kubelet.config` (AL2023), e.g. systemReserved / kubeReserved / evictionHard. */
  readonly kubeletConfig?: Record<string, unknown>;
  /**
   * True when the user data builds a RAID0 array of the instance store disks for the kubelet's
   * storage: NodeConfig `spec.instance.localStorage.strategy: RAID0` (AL2023), bootstrap.sh
   * `--local-disks raid0` (AL2), an enabled bootstrap command running `apiclient ephemeral-storage
   * init` (Bottlerocket).
   */
  readonly localStorageRaid0?: boolean;
}

/** Parses decoded (not base64) user data; throws an Error naming the format and what was wrong. */
export function parseUserData(userData: string): NodeBootstrap {
  const text = userData.replace(/\r\n/g, '\n');
  if (
    /^MIME-Version:/im.test(text.slice(0, 500)) ||
    /^Content-Type:\s*multipart\//im.test(text.slice(0, 500))
  )
    return parseMime(text);
  if (/^\s*apiVersion:\s*node\.eks\.aws\//m.test(text)) return parseNodeConfig(text);
  if (/\/etc\/eks\/bootstrap\.sh/.test(text)) return parseAl2(text);
  if (/^\s*\[settings\./m.test(text)) return parseBottlerocket(text);
  throw new Error(
    'user data: not a known node bootstrap format (expected AL2023 MIME multipart with an application/node.eks.aws part, ' +
      'Bottlerocket TOML with [settings.kubernetes], or an AL2 script calling /etc/eks/bootstrap.sh)',
  );
}

function parseMime(text: string): NodeBootstrap {
  const boundary = /boundary="?([^";\n]+)"?/i.exec(text)?.[1];
  if (!boundary) throw new Error('user data (AL2023 MIME): the multipart Content-Type has no boundary');
  const parts = text.split(`--${boundary}`).slice(1);
  const configs = parts
    .map((part) => {
      const split = part.replace(/^\n/, '').indexOf('\n\n');
      const body = part.replace(/^\n/, '');
      return {
        headers: split === -1 ? body : body.slice(0, split),
        body: split === -1 ? '' : body.slice(split + 2),
      };
    })
    .filter((p) => /Content-Type:\s*application\/node\.eks\.aws/i.test(p.headers))
    .map((p) =>
      /Content-Transfer-Encoding:\s*base64/i.test(p.headers)
        ? Buffer.from(p.body, 'base64').toString('utf8')
        : p.body,
    );
  if (configs.length === 0)
    throw new Error('user data (AL2023 MIME): no part with Content-Type: application/node.eks.aws');
  const parsed = configs.map(parseNodeConfig);
  const labels: Record<string, string> = {};
  const taints: Taint[] = [];
  const kubeletConfig: Record<string, unknown> = {};
  for (const p of parsed) {
    Object.assign(labels, p.labels);
    taints.push(...p.taints);
    Object.assign(kubeletConfig, p.kubeletConfig);
  }
  const last = (f: (b: NodeBootstrap) => unknown) =>
    parsed
      .map(f)
      .filter((v) => v !== undefined)
      .pop();
  return {
    format: 'AL2023',
    clusterName: last((b) => b.clusterName) as string | undefined,
    apiServerEndpoint: last((b) => b.apiServerEndpoint) as string | undefined,
    labels,
    taints,
    maxPods: last((b) => b.maxPods) as number | undefined,
    kubeletConfig,
    localStorageRaid0: last((b) => b.localStorageRaid0) as boolean | undefined,
  };
}

interface NodeConfigDoc {
  kind?: string;
  spec?: {
    cluster?: { name?: string; apiServerEndpoint?: string };
    kubelet?: { config?: Record<string, unknown>; flags?: string[] };
    instance?: { localStorage?: { strategy?: string } };
  };
}

/** The NodeConfig's local storage strategy as a RAID0 flag; undefined when it says nothing. */
function localStorageRaid0(config: NodeConfigDoc): boolean | undefined {
  const strategy = config.spec?.instance?.localStorage?.strategy;
  return strategy === undefined ? undefined : strategy === 'RAID0';
}

/** Whether an enabled Bottlerocket bootstrap command initialises the ephemeral storage array. */
function bottlerocketRaid0(commands: unknown): boolean {
  if (typeof commands !== 'object' || commands === null) return false;
  return Object.values(commands as Record<string, { commands?: unknown; mode?: unknown }>).some(
    (c) =>
      c.mode !== 'off' &&
      Array.isArray(c.commands) &&
      c.commands.some(
        (argv) => Array.isArray(argv) && argv.join(' ').startsWith('apiclient ephemeral-storage init'),
      ),
  );
}

function parseNodeConfig(text: string): NodeBootstrap {
  const docs = parseAllDocuments(text.replace(/\n--\s*$/, ''));
  let result: NodeBootstrap = { format: 'AL2023', labels: {}, taints: [] };
  for (const doc of docs) {
    if (doc.errors.length > 0)
      throw new Error(`user data (AL2023 NodeConfig): invalid YAML: ${doc.errors[0].message}`);
    const config = doc.toJS() as NodeConfigDoc | null;
    if (config?.kind !== 'NodeConfig') continue;
    const flags = parseKubeletFlags(config.spec?.kubelet?.flags ?? [], 'NodeConfig spec.kubelet.flags');
    const kubeletConfig = config.spec?.kubelet?.config ?? {};
    const maxPods = kubeletConfig.maxPods;
    if (maxPods !== undefined && (!Number.isInteger(maxPods) || (maxPods as number) <= 0)) {
      throw new Error(
        'user data (AL2023 NodeConfig): spec.kubelet.config.maxPods must be a positive integer',
      );
    }
    result = {
      format: 'AL2023',
      clusterName: config.spec?.cluster?.name ?? result.clusterName,
      apiServerEndpoint: config.spec?.cluster?.apiServerEndpoint ?? result.apiServerEndpoint,
      labels: { ...result.labels, ...flags.labels },
      taints: [...result.taints, ...flags.taints],
      maxPods: (maxPods as number | undefined) ?? flags.maxPods ?? result.maxPods,
      kubeletConfig: { ...result.kubeletConfig, ...kubeletConfig },
      localStorageRaid0: localStorageRaid0(config) ?? result.localStorageRaid0,
    };
  }
  return result;
}

function parseBottlerocket(text: string): NodeBootstrap {
  const settings = parseTomlSubset(text, 'user data (Bottlerocket)').settings as
    | Record<string, Record<string, unknown>>
    | undefined;
  const k8s = (settings?.kubernetes ?? {}) as Record<string, unknown>;
  const labels = (k8s['node-labels'] ?? {}) as Record<string, string>;
  const taints: Taint[] = [];
  for (const [key, values] of Object.entries(
    (k8s['node-taints'] ?? {}) as Record<string, string[] | string>,
  )) {
    for (const v of Array.isArray(values) ? values : [values]) {
      taints.push(parseTaint(`${key}=${v}`, 'user data (Bottlerocket) [settings.kubernetes.node-taints]'));
    }
  }
  const maxPods = k8s['max-pods'];
  if (maxPods !== undefined && (typeof maxPods !== 'number' || maxPods <= 0)) {
    throw new Error('user data (Bottlerocket): settings.kubernetes.max-pods must be a positive integer');
  }
  return {
    format: 'Bottlerocket',
    clusterName: k8s['cluster-name'] as string | undefined,
    apiServerEndpoint: k8s['api-server'] as string | undefined,
    labels: Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])),
    taints,
    maxPods: maxPods as number | undefined,
    localStorageRaid0: bottlerocketRaid0(settings?.['bootstrap-commands']),
  };
}

function parseAl2(text: string): NodeBootstrap {
  const line = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .find((l) => l.includes('/etc/eks/bootstrap.sh'))!;
  const words = shellWords(line.slice(line.indexOf('/etc/eks/bootstrap.sh')));
  const arg = (name: string): string | undefined => {
    const i = words.indexOf(name);
    return i === -1 ? undefined : words[i + 1];
  };
  const flags = parseKubeletFlags(
    shellWords(arg('--kubelet-extra-args') ?? ''),
    'user data (AL2) --kubelet-extra-args',
  );
  return {
    format: 'AL2',
    clusterName: words[1] && !words[1].startsWith('--') ? words[1] : undefined,
    apiServerEndpoint: arg('--apiserver-endpoint'),
    labels: flags.labels,
    taints: flags.taints,
    maxPods: flags.maxPods,
    localStorageRaid0: arg('--local-disks') === 'raid0',
  };
}
