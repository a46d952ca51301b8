/**
 * The simulated EC2 market changing while a simulation runs: spot prices move (with a history
 * DescribeSpotPriceHistory serves) and offerings are withdrawn and come back. The catalog the
 * simulated EC2 and Pricing serve is the state's instance types, so every API answer follows.
 */
import type { CapacityType, InstanceType, Offering } from '../../core/model/instance-type.js';
import type { Ec2State } from './ec2-state.js';

/** One spot price in effect from `at` (virtual ms). */
export interface SpotPricePoint {
  readonly at: number;
  readonly price: number;
}

/** Spot price changes and withdrawn offerings of one simulated region. */
export class Ec2Market {
  /** Changes per `type|zone`, oldest first (the catalog's price holds before the first). */
  private readonly changes = new Map<string, SpotPricePoint[]>();
  /** Offerings taken off the market, by `type|zone|capacityType`. */
  private readonly withdrawn = new Map<string, Offering>();
  /** The catalog's spot price per `type|zone`, kept when a change replaces it. */
  private readonly initial = new Map<string, number>();

  /**
   * @param openedAt virtual time the catalog's spot prices are reported from (an hour before the
   * simulation started, as a history always has a past)
   */
  constructor(
    private readonly state: Ec2State,
    readonly openedAt: number,
  ) {}

  /** Sets the spot price of a type in a zone from `now` on. */
  setSpotPrice(type: string, zone: string, price: number, now: number): void {
    if (!(price > 0) || !Number.isFinite(price))
      throw new Error(`spot price must be a positive number, got ${price}`);
    const it = this.instanceType(type);
    const key = offeringKey(type, zone, 'spot');
    const withdrawn = this.withdrawn.get(key);
    if (withdrawn) this.withdrawn.set(key, { ...withdrawn, price });
    else if (!it.offerings.some((o) => o.zone === zone && o.capacityType === 'spot'))
      throw new Error(`${type} has no spot offering in ${zone}`);
    else
      this.replace(
        it,
        it.offerings.map((o) => (o.zone === zone && o.capacityType === 'spot' ? { ...o, price } : o)),
      );
    const points = this.changes.get(`${type}|${zone}`) ?? [];
    points.push({ at: now, price });
    this.changes.set(`${type}|${zone}`, points);
  }

  /** Takes an offering off the market (`available: false`) or brings it back. */
  setOffering(type: string, zone: string, capacityType: CapacityType, available: boolean): void {
    const it = this.instanceType(type);
    const key = offeringKey(type, zone, capacityType);
    const current = it.offerings.find((o) => o.zone === zone && o.capacityType === capacityType);
    if (!available) {
      if (!current) {
        if (this.withdrawn.has(key)) return;
        throw new Error(`${type} has no ${capacityType} offering in ${zone}`);
      }
      this.withdrawn.set(key, current);
      this.replace(
        it,
        it.offerings.filter((o) => o !== current),
      );
      return;
    }
    if (current) return;
    const back = this.withdrawn.get(key);
    if (!back) throw new Error(`${type} has no ${capacityType} offering in ${zone} to bring back`);
    this.withdrawn.delete(key);
    this.replace(it, [...it.offerings, back]);
  }

  /** Whether the offering exists in the catalog but is withdrawn now. */
  isWithdrawn(type: string, zone: string, capacityType: CapacityType): boolean {
    return this.withdrawn.has(offeringKey(type, zone, capacityType));
  }

  /**
   * The spot price history of a type in a zone with `price` in effect now: the catalog's price
   * from {@link openedAt}, then each change. With `start`, only the point in effect at `start`
   * and the later ones (as EC2 answers a StartTime).
   */
  history(type: string, zone: string, price: number, start?: number): SpotPricePoint[] {
    const changes = this.changes.get(`${type}|${zone}`) ?? [];
    const first = this.initial.get(`${type}|${zone}`) ?? price;
    const points = [{ at: this.openedAt, price: first }, ...changes];
    if (start === undefined) return points;
    const effective = points.filter((p) => p.at <= start).pop();
    return [...(effective ? [effective] : []), ...points.filter((p) => p.at > start)];
  }

  private instanceType(name: string): InstanceType {
    const it = this.state.instanceTypes.get(name);
    if (!it) throw new Error(`no instance type ${name} in the simulated region ${this.state.region}`);
    return it;
  }

  private replace(it: InstanceType, offerings: Offering[]): void {
    for (const o of it.offerings) {
      const key = `${it.name}|${o.zone}`;
      if (o.capacityType === 'spot' && !this.initial.has(key)) this.initial.set(key, o.price);
    }
    this.state.instanceTypes.set(it.name, { ...it, offerings });
  }
}

function offeringKey(type: string, zone: string, capacityType: CapacityType): string {
  return `${type}|${zone}|${capacityType}`;
}
