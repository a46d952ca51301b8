import type { NodeClass } from '../node-class.js';
import type { NodeOverlay } from '../node-overlay.js';
import type { NodePool } from '../node-pool.js';

/** A warning or error found while converting a validated document (path relative to the document). */
export interface ConvertIssue {
  readonly severity: 'error' | 'warning';
  readonly path: string;
  readonly message: string;
  readonly hint?: string;
}

/** What one configuration document converts into. */
export interface Converted {
  readonly nodePools: NodePool[];
  readonly nodeClasses: NodeClass[];
  readonly nodeOverlays: NodeOverlay[];
  readonly issues: ConvertIssue[];
}

/** An empty conversion result to fill. */
export function emptyConverted(): Converted {
  return { nodePools: [], nodeClasses: [], nodeOverlays: [], issues: [] };
}
