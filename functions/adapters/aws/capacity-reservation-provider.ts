/**
 * Resolves EC2NodeClass `capacityReservationSelectorTerms` to capacity reservations through
 * DescribeCapacityReservations, with Karpenter's queries (Karpenter v1.3+): an `id` term asks for
 * that reservation (one EC2 no longer has is skipped, not an error); a `tags` / `ownerID` /
 * `instanceMatchCriteria` term filters on them (`tag-key` for a `*` value). Every query asks for
 * `active` reservations only; reservations past their end date and duplicates are dropped. Not
 * cached: each provisioning run reads them once, so the available counts it plans with are EC2's.
 */
import type { CapacityReservation as Ec2Reservation, Filter } from '@aws-sdk/client-ec2';
import type { CapacityReservation } from '../../core/model/capacity-reservation.js';
import type { SelectorTerm } from '../../core/model/node-class.js';
import type { Ec2Api } from './ec2-api.js';

/** Reads the capacity reservations a NodeClass selects. */
export class CapacityReservationProvider {
  constructor(
    private readonly ec2: Ec2Api,
    private readonly now: () => number = Date.now,
  ) {}

  /** The reservations any term selects, sorted by id; reservations EC2 describes oddly are left out. */
  async list(terms: readonly SelectorTerm[]): Promise<CapacityReservation[]> {
    if (terms.length === 0) return [];
    const found = await Promise.all(terms.map((term) => this.query(term)));
    const byId = new Map<string, CapacityReservation>();
    for (const raw of found.flat()) {
      const r = fromEc2(raw);
      if (!r || byId.has(r.id)) continue;
      if (r.endTime !== undefined && r.endTime <= this.now()) continue;
      byId.set(r.id, r);
    }
    return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  private async query(term: SelectorTerm): Promise<Ec2Reservation[]> {
    const active: Filter = { Name: 'state', Values: ['active'] };
    if (term.id) {
      try {
        return await this.ec2.describeCapacityReservations([active], [term.id]);
      } catch (error) {
        if ((error as { name?: string }).name === 'InvalidCapacityReservationId.NotFound') return [];
        throw error;
      }
    }
    const filters: Filter[] = [active];
    if (term.ownerId) filters.push({ Name: 'owner-id', Values: [term.ownerId] });
    for (const [key, value] of Object.entries(term.tags ?? {})) {
      filters.push(
        value === '*' ? { Name: 'tag-key', Values: [key] } : { Name: `tag:${key}`, Values: [value] },
      );
    }
    if (term.instanceMatchCriteria)
      filters.push({ Name: 'instance-match-criteria', Values: [term.instanceMatchCriteria] });
    return this.ec2.describeCapacityReservations(filters);
  }
}

/** The reservation as joiner plans with it; undefined for one Karpenter would not use either. */
function fromEc2(r: Ec2Reservation): CapacityReservation | undefined {
  const criteria = r.InstanceMatchCriteria;
  const type = r.ReservationType ?? 'default';
  if (
    !r.CapacityReservationId ||
    !r.InstanceType ||
    !r.AvailabilityZone ||
    (criteria !== 'open' && criteria !== 'targeted') ||
    (type !== 'default' && type !== 'capacity-block')
  )
    return undefined;
  return {
    id: r.CapacityReservationId,
    instanceType: r.InstanceType,
    zone: r.AvailabilityZone,
    ownerId: r.OwnerId ?? '',
    instanceMatchCriteria: criteria,
    reservationType: type,
    ...(r.EndDate ? { endTime: r.EndDate.getTime() } : {}),
    availableInstanceCount: r.AvailableInstanceCount ?? 0,
  };
}
