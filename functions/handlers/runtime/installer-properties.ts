import type { KubeManifest } from '../../core/install/kube-manifest.js';
import { parseYamlDocuments } from '../../core/model/config/raw-document.js';

/** The installer's custom resource properties, parsed. */
export interface InstallRequest {
  readonly clusterName: string;
  /** joiner's CRDs, RBAC and webhook configuration (webhook URLs still with the secret placeholder). */
  readonly manifests: KubeManifest[];
  /** The user's NodePools / NodeClasses. */
  readonly documents: KubeManifest[];
  readonly webhookSecretArn?: string;
}

/**
 * Parses `ResourceProperties` (every value a string: Manifests and Documents are JSON, each
 * document's content YAML). Throws an error naming the property, file and document that is wrong.
 */
export function parseInstallProperties(props: Record<string, unknown> | undefined): InstallRequest {
  const p = props ?? {};
  const clusterName = p.ClusterName;
  if (typeof clusterName !== 'string' || !clusterName) throw new Error('property ClusterName is missing');
  const manifests = jsonList(p.Manifests, 'Manifests').map((m, i) => manifestOf(m, `Manifests[${i}]`));
  const documents = jsonList(p.Documents ?? '[]', 'Documents').flatMap((d, i) => documentsOf(d, i));
  const arn = p.WebhookSecretArn;
  return {
    clusterName,
    manifests,
    documents,
    ...(typeof arn === 'string' && arn ? { webhookSecretArn: arn } : {}),
  };
}

function jsonList(value: unknown, property: string): unknown[] {
  const parsed = typeof value === 'string' ? tryJson(value, property) : value;
  if (!Array.isArray(parsed)) throw new Error(`property ${property} must be a JSON list`);
  return parsed;
}

function tryJson(text: string, property: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`property ${property} is not JSON: ${(error as Error).message}`);
  }
}

function manifestOf(value: unknown, where: string): KubeManifest {
  const m = value as Partial<KubeManifest> | null;
  if (!m || typeof m !== 'object') throw new Error(`${where} is not an object`);
  if (typeof m.apiVersion !== 'string' || !m.apiVersion) throw new Error(`${where}: apiVersion is missing`);
  if (typeof m.kind !== 'string' || !m.kind) throw new Error(`${where}: kind is missing`);
  if (!m.metadata || typeof m.metadata.name !== 'string' || !m.metadata.name) {
    throw new Error(`${where} (${m.kind}): metadata.name is missing`);
  }
  return m as KubeManifest;
}

function documentsOf(value: unknown, index: number): KubeManifest[] {
  const d = value as { file?: unknown; content?: unknown } | null;
  const file = typeof d?.file === 'string' && d.file ? d.file : `Documents[${index}]`;
  if (typeof d?.content !== 'string') throw new Error(`${file}: content must be YAML text`);
  const { documents, diagnostics } = parseYamlDocuments(file, d.content);
  if (diagnostics.length > 0) throw new Error(`${file}: ${diagnostics.map((x) => x.message).join('; ')}`);
  return documents.map((doc) => manifestOf(doc.object, `${file} document ${doc.index + 1}`));
}

/** `apiVersion kind namespace/name`: the identity of a manifest. */
export function manifestKey(m: KubeManifest): string {
  return `${m.apiVersion} ${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
}
