/**
 * What to do about a launch EC2 terminated with `Client.InternalError` when the EC2NodeClass
 * encrypts its volumes with a KMS key of its own: most often the role that launched may not use
 * the key through EC2. The failure then names the key and the setting that grants it
 * (`joiner:ebsKmsKeyArns` in cdk.json, or the `ebsKmsKeyArns` prop of the Joiner construct), so
 * the NodeClaim's and NodePool's events, the pods' events and the EC2NodeClass's Ready condition
 * all say which key to add where.
 */
import type { ConfigDocument } from '../ports/cluster-api.js';
import type { LaunchTermination } from './launch-termination.js';

/** The cdk.json context key that grants the controller role customer-managed EBS keys. */
export const EBS_KMS_KEYS_SETTING = 'joiner:ebsKmsKeyArns';

/** The KMS actions EC2 needs on the key as the launching principal. */
const NEEDED = 'kms:CreateGrant, kms:Decrypt, kms:GenerateDataKeyWithoutPlaintext and kms:DescribeKey';

/** The `kmsKeyID`s of a NodeClass document's block device mappings. */
export function volumeKeysOf(doc: ConfigDocument): string[] {
  const spec = doc.spec as { blockDeviceMappings?: unknown } | undefined;
  const mappings = Array.isArray(spec?.blockDeviceMappings) ? spec.blockDeviceMappings : [];
  const keys = mappings.flatMap((m) => {
    const key = (m as { ebs?: { kmsKeyID?: unknown } } | null)?.ebs?.kmsKeyID;
    return typeof key === 'string' && key !== '' ? [key] : [];
  });
  return [...new Set(keys)];
}

/**
 * `termination` with what to do about the keys of NodeClass `nodeClass` (see the file comment);
 * unchanged when it is not a `Client.InternalError` or the NodeClass names no key.
 */
export function withVolumeKeys(
  termination: LaunchTermination,
  nodeClass: string,
  keys: readonly string[],
): LaunchTermination {
  if (termination.code !== 'Client.InternalError' || keys.length === 0) return termination;
  const said = termination.message.slice(0, termination.message.indexOf(');') + 1) || termination.message;
  const named = keys.length === 1 ? `KMS key ${keys[0]}` : `KMS keys ${keys.join(', ')}`;
  return {
    ...termination,
    message: `${said}; EC2NodeClass ${nodeClass} encrypts its volumes with ${named}, which joiner's controller role may not use through EC2 (${NEEDED}): add the key ARN to ${EBS_KMS_KEYS_SETTING} in cdk.json (or the ebsKmsKeyArns prop of the Joiner construct) and deploy, or allow the role in the key policy`,
  };
}
