import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../functions/simulator/scenario/load-scenario.js';
import { reservationSpec } from '../../../../functions/simulator/scenario/scenario-reservations.js';

const parse = (text: string) => parseScenario(text, 'scenarios/t.yaml');
const ODCR = 'cr-0a1b2c3d4e5f60718';
const BLOCK = 'cr-0b1c2d3e4f5061728';

const reservations = `capacityReservations:
  - { id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 2, tags: { team: web } }
  - { id: ${BLOCK}, instanceType: p3.8xlarge, availabilityZone: us-west-2b, count: 2, type: capacity-block, endsAfter: 50m, ownerId: "444455556666" }
`;

describe('capacity reservations in scenario files', () => {
  it('reads the account’s reservations with their defaults, and the steps that change or add one', async () => {
    const s = await parse(`name: t
${reservations}steps:
  - capacityReservation: { id: ${ODCR}, count: 3 }
  - capacityReservation: { id: ${BLOCK}, endsAfter: 2h }
  - capacityReservation: { id: cr-0c1d2e3f405162738, instanceType: c5.large, availabilityZone: us-west-2c, count: 1, instanceMatchCriteria: open }
`);
    expect(s.capacityReservations.map((r) => [r.id, r.type, r.instanceMatchCriteria])).toEqual([
      [ODCR, 'default', 'targeted'],
      [BLOCK, 'capacity-block', 'targeted'],
    ]);
    expect(s.steps.map((x) => x.kind)).toEqual([
      'capacityReservation',
      'capacityReservation',
      'capacityReservation',
    ]);
    expect(s.steps[0]).toMatchObject({ spec: { id: ODCR, count: 3 } });
    expect(s.steps[2]).toMatchObject({
      spec: { instanceType: 'c5.large', type: 'default', instanceMatchCriteria: 'open' },
    });
  });

  it('turns a declaration into what the simulated EC2 holds, the end counted from the moment it is declared', async () => {
    const s = await parse(`name: t\n${reservations}steps:\n  - wait: 1s\n`);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(reservationSpec(s.capacityReservations[1], now)).toEqual({
      id: BLOCK,
      instanceType: 'p3.8xlarge',
      availabilityZone: 'us-west-2b',
      count: 2,
      reservationType: 'capacity-block',
      instanceMatchCriteria: 'targeted',
      startDate: now,
      endDate: now + 50 * 60_000,
      tags: {},
      ownerId: '444455556666',
    });
    expect(reservationSpec(s.capacityReservations[0], now)).not.toHaveProperty('endDate');
  });

  it('refuses bad reservations, naming the field', async () => {
    const bad = (decl: string) =>
      parse(`name: t\ncapacityReservations:\n  - ${decl}\nsteps:\n  - wait: 1s\n`);
    await expect(
      bad('{ id: cr-123, instanceType: m5.large, availabilityZone: us-west-2a, count: 1 }'),
    ).rejects.toThrow(/capacityReservations\[0\]\.id: expected a capacity reservation id/);
    await expect(
      bad(
        `{ id: ${BLOCK}, instanceType: p3.8xlarge, availabilityZone: us-west-2b, count: 1, type: capacity-block }`,
      ),
    ).rejects.toThrow(/capacityReservations\[0\]\.endsAfter: a capacity block has an end/);
    await expect(
      bad(`{ id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 0 }`),
    ).rejects.toThrow(/capacityReservations\[0\]\.count/);
    await expect(
      bad(`{ id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 1, endsAfter: soon }`),
    ).rejects.toThrow(/capacityReservations\[0\]\.endsAfter: expected a duration/);
    await expect(
      bad(`{ id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 1, ownerId: me }`),
    ).rejects.toThrow(/capacityReservations\[0\]\.ownerId: expected a 12-digit AWS account id/);
  });

  it('refuses a change of a reservation not declared before it, a second declaration, and an empty change', async () => {
    await expect(
      parse(`name: t\nsteps:\n  - capacityReservation: { id: ${ODCR}, count: 3 }\n`),
    ).rejects.toThrow(
      `scenarios/t.yaml: steps[0].capacityReservation.id: no reservation ${ODCR} to change (none is declared before it)`,
    );
    await expect(
      parse(
        `name: t\n${reservations}steps:\n  - capacityReservation: { id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 1 }\n`,
      ),
    ).rejects.toThrow(/steps\[0\]\.capacityReservation\.id: .* is declared before/);
    await expect(
      parse(`name: t\n${reservations}steps:\n  - capacityReservation: { id: ${ODCR} }\n`),
    ).rejects.toThrow(/steps\[0\]\.capacityReservation: a change gives count, endsAfter or both/);
    await expect(
      parse(
        `name: t\ncapacityReservations:\n  - { id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 1 }\n  - { id: ${ODCR}, instanceType: m5.large, availabilityZone: us-west-2a, count: 1 }\nsteps:\n  - wait: 1s\n`,
      ),
    ).rejects.toThrow(`capacityReservations[1].id: ${ODCR} is declared twice`);
  });
});
