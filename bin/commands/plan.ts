import { loadFiles } from '../../functions/adapters/files/load-files.js';
import { readCatalog } from '../../functions/adapters/files/read-catalog.js';
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import { formatDiagnostic } from '../../functions/core/model/config/diagnostic.js';
import type { Catalog } from '../../functions/core/model/instance-type.js';
import { snapshotFromFiles } from '../../functions/core/provisioning/file-snapshot.js';
import { planWithStaticPools } from '../../functions/core/provisioning/static-plan.js';
import type { InstanceTypeOption, SchedulePlan } from '../../functions/core/scheduling/types.js';

/** `joiner plan -o json` output: the plan plus a summary. */
export interface PlanOutput extends SchedulePlan {
  readonly summary: {
    readonly pods: number;
    readonly nodeClaims: number;
    /** Sum of each claim's first option price: the price the plan was decided with (NodeOverlays applied). */
    readonly hourlyCost: number;
    /** The same at the catalog's list prices, when a NodeOverlay priced a first option. */
    readonly listHourlyCost?: number;
  };
  /** List prices of the first options a NodeOverlay priced, by nodeclaim name. */
  readonly listPrices?: Readonly<Record<string, number>>;
}

/** The catalog's list price of an offering (undefined when the catalog has none). */
function listPriceOf(catalog: Catalog, o: InstanceTypeOption): number | undefined {
  return catalog.instanceTypes
    .find((t) => t.name === o.instanceType)
    ?.offerings.find((x) => x.zone === o.zone && x.capacityType === o.capacityType)?.price;
}

/** The plan with its summary; the list prices of NodeOverlay-priced first options alongside. */
export function summarize(plan: SchedulePlan, pods: number, catalog: Catalog): PlanOutput {
  const cost = plan.nodeClaims.reduce((sum, c) => sum + (c.instanceTypeOptions[0]?.price ?? 0), 0);
  const listPrices: Record<string, number> = {};
  for (const c of plan.nodeClaims) {
    const best = c.instanceTypeOptions[0];
    const list = best?.priceOverlaid ? listPriceOf(catalog, best) : undefined;
    if (list !== undefined) listPrices[c.name] = list;
  }
  const overlaid = Object.keys(listPrices).length > 0;
  const listCost = plan.nodeClaims.reduce(
    (sum, c) => sum + (listPrices[c.name] ?? c.instanceTypeOptions[0]?.price ?? 0),
    0,
  );
  return {
    ...plan,
    summary: {
      pods,
      nodeClaims: plan.nodeClaims.length,
      hourlyCost: Number(cost.toFixed(6)),
      ...(overlaid ? { listHourlyCost: Number(listCost.toFixed(6)) } : {}),
    },
    ...(overlaid ? { listPrices } : {}),
  };
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

/** The plan as people read Karpenter's log: the packing line, one row per claim, then problems. */
export function formatPlanTable(out: PlanOutput): string {
  const placed = out.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
  const lines = [`computed packing of ${out.nodeClaims.length} node(s) for ${placed} pod(s)`];
  if (out.nodeClaims.length > 0) {
    const rows = [
      ['NODECLAIM', 'NODEPOOL', 'INSTANCE TYPE', 'ZONE', 'CAPACITY TYPE', 'PODS', 'PRICE/H', 'OPTIONS'],
    ];
    for (const c of out.nodeClaims) {
      const best = c.instanceTypeOptions[0];
      rows.push([
        c.name,
        c.nodePool,
        best?.instanceType ?? '-',
        best?.zone ?? '-',
        best?.capacityType ?? '-',
        String(c.pods.length),
        best ? `$${best.price.toFixed(4)}${best.priceOverlaid ? ' (overlay)' : ''}` : '-',
        String(c.instanceTypeOptions.length),
      ]);
    }
    lines.push(...table(rows));
  }
  for (const p of out.existingPlacements) lines.push(`existing node ${p.node}: ${p.pods.length} pod(s)`);
  if (out.unschedulable.length > 0) {
    lines.push(`${out.unschedulable.length} pod(s) cannot be scheduled:`);
    for (const u of out.unschedulable) lines.push(`  ${u.pod}: ${u.reason}`);
  }
  const list = out.summary.listHourlyCost;
  lines.push(
    `hourly cost of new nodes: $${out.summary.hourlyCost.toFixed(4)}` +
      (list === undefined ? '' : ` (NodeOverlay prices; list prices $${list.toFixed(4)})`),
  );
  return lines.join('\n');
}

/**
 * Reads NodePools, NodeClasses, workloads, StorageClasses, RuntimeClasses and existing Nodes (with
 * the pods bound to them) from the files, and the instance catalog (`catalogFile`, else the bundled
 * one), and plans them as the provisioner plans the cluster (the same snapshot and planning code;
 * a static NodePool's replicas are planned first, and pods go onto them).
 * Throws an Error with a clear message on bad input (files, documents, catalog).
 */
export async function computePlan(files: string[], catalogFile?: string): Promise<PlanOutput> {
  const loaded = await loadFiles(files);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map(formatDiagnostic).join('\n'));
  const catalog = catalogFile ? await readCatalog(catalogFile) : bundledCatalog;
  const snapshot = snapshotFromFiles(loaded);
  const { plan, pending } = planWithStaticPools(snapshot, catalog, Date.now());
  return summarize(plan, pending.length, catalog);
}
