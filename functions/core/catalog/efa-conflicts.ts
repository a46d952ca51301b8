/**
 * NodeClasses whose Multus interfaces leave no room for the EFA interfaces of the catalog's
 * EFA-capable types (see launch/efa-interfaces.ts): on those types the NodeClass's nodes cannot
 * get EFA interfaces, so the scheduler does not plan pods that request `vpc.amazonaws.com/efa`
 * there. `joiner validate` says so as a warning, naming the first conflict and the types.
 */
import { efaConflict } from '../launch/efa-interfaces.js';
import { type Diagnostic, documentLabel } from '../model/config/diagnostic.js';
import type { Catalog } from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import { EFA } from '../model/resources.js';

/** How many instance types a warning names. */
const NAMED_TYPES = 5;

/** A warning for `nodeClass` when its Multus interfaces block EFA on some EFA-capable type, else none. */
export function efaConflicts(nodeClass: NodeClass, catalog: Catalog): Diagnostic[] {
  if (nodeClass.multusInterfaces.length === 0) return [];
  const blocked: { type: string; why: string }[] = [];
  for (const type of catalog.instanceTypes) {
    const why = efaConflict(type, nodeClass.multusInterfaces);
    if (why) blocked.push({ type: type.name, why });
  }
  if (blocked.length === 0) return [];
  const efaTypes = catalog.instanceTypes.filter((t) => t.maxEfaInterfaces).length;
  const named = blocked.slice(0, NAMED_TYPES).map((b) => b.type);
  const more = blocked.length > NAMED_TYPES ? ` and ${blocked.length - NAMED_TYPES} more` : '';
  return [
    {
      severity: 'warning',
      file: nodeClass.source.file,
      document: documentLabel(nodeClass.source),
      path: 'spec.multusInterfaces',
      message: `pods requesting ${EFA} cannot run on ${blocked.length} of the ${efaTypes} EFA-capable instance types with this NodeClass (${named.join(', ')}${more}): ${blocked[0].why}`,
      hint: 'EFA interfaces take network card 0 device index 0 and device index 1 of network cards 1 and up; put Multus interfaces on network card 0 (device index 1 and up) or at device index 2 and up',
    },
  ];
}
