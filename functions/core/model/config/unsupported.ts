import { ALIAS_FAMILIES, aliasFamilyName, nodeClassAmiFamily } from '../ami-family.js';
import { parseBottlerocketToml } from '../bottlerocket-toml.js';
import type { NodeClass } from '../node-class.js';
import type { ConvertIssue } from './convert-result.js';

const WINDOWS = new Set(['Windows2019', 'Windows2022', 'Windows2025']);

const LAUNCHABLE = 'use AL2023, AL2, Bottlerocket or Custom';

/**
 * Errors for what a NodeClass asks that joiner does not do yet, so `joiner validate` refuses it
 * instead of the nodes coming up different from what Karpenter would launch: Windows AMI families
 * (written or through an alias), alias families Karpenter does not know, and capacity reservations.
 * A RAID0 instance store policy on a Custom family is a warning: joiner passes Custom user data
 * through, so that user data has to assemble the array itself (as with Karpenter).
 * `prefix` is where the NodeClass fields sit in the document (`spec`, or `spec.provider`).
 */
export function unsupportedIssues(nodeClass: NodeClass, prefix = 'spec'): ConvertIssue[] {
  const issues: ConvertIssue[] = [];
  if (nodeClass.amiFamily !== undefined && WINDOWS.has(nodeClass.amiFamily)) {
    issues.push({
      severity: 'error',
      path: `${prefix}.amiFamily`,
      message: `amiFamily ${nodeClass.amiFamily} is not supported: joiner does not launch Windows nodes yet`,
      hint: LAUNCHABLE,
    });
  }
  nodeClass.amiSelectorTerms.forEach((term, i) => {
    if (term.alias === undefined) return;
    const family = ALIAS_FAMILIES[aliasFamilyName(term.alias)];
    const path = `${prefix}.amiSelectorTerms[${i}].alias`;
    if (family === undefined) {
      issues.push({
        severity: 'error',
        path,
        message: `alias "${term.alias}" names an unknown AMI family "${aliasFamilyName(term.alias)}"`,
        hint: 'the alias families are al2023, al2, bottlerocket (e.g. al2023@latest)',
      });
    } else if (WINDOWS.has(family) && !WINDOWS.has(nodeClass.amiFamily ?? '')) {
      issues.push({
        severity: 'error',
        path,
        message: `alias "${term.alias}" selects ${family} AMIs: joiner does not launch Windows nodes yet`,
        hint: 'use an al2023@, al2@ or bottlerocket@ alias',
      });
    }
  });
  if (nodeClass.instanceStorePolicy === 'RAID0' && nodeClassAmiFamily(nodeClass) === 'Custom') {
    issues.push({
      severity: 'warning',
      path: `${prefix}.instanceStorePolicy`,
      message:
        'instanceStorePolicy RAID0 with amiFamily Custom: joiner plans ephemeral storage as the instance store, but only your userData can assemble the array',
      hint: 'make the userData build the RAID0 array and mount it for the kubelet and containerd, or use AL2023, AL2 or Bottlerocket',
    });
  }
  issues.push(...userDataIssues(nodeClass, prefix));
  return issues;
}

/** Bottlerocket user data that is not TOML: refused here rather than at launch. */
function userDataIssues(nodeClass: NodeClass, prefix: string): ConvertIssue[] {
  if (!nodeClass.userData?.trim() || nodeClassAmiFamily(nodeClass) !== 'Bottlerocket') return [];
  try {
    parseBottlerocketToml(nodeClass.userData);
    return [];
  } catch (error) {
    return [
      {
        severity: 'error',
        path: `${prefix}.userData`,
        message: `Bottlerocket userData is ${(error as Error).message}`,
        hint: 'Bottlerocket user data is TOML settings; joiner merges its [settings.kubernetes] into yours',
      },
    ];
  }
}

/** An EC2 Fleet `context` joiner does not send with its launches: refused, never dropped. */
export function contextIssues(spec: unknown, prefix = 'spec'): ConvertIssue[] {
  const context = (spec as { context?: unknown } | undefined)?.context;
  if (context === undefined || context === '') return [];
  return [
    {
      severity: 'error',
      path: `${prefix}.context`,
      message:
        'context is not supported: joiner does not send an EC2 Fleet context with its launches (it is for reserved capacity such as ODCR groups)',
      hint: 'remove context',
    },
  ];
}
