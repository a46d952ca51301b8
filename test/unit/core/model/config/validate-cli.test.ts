import { describe, expect, it } from 'vitest';
import { runJoiner } from '../../../../helpers/run-joiner.js';

const FIX = 'test/unit/core/model/config/fixtures';

function validate(...files: string[]) {
  return runJoiner('validate', ...files.flatMap((f) => ['-f', f]));
}

describe('joiner validate', () => {
  it('prints kind/name: ok for every seed example and exits 0', async () => {
    const r = await validate('examples/seed-004', 'examples/seed-000');
    expect(r.code).toBe(0);
    expect(r.out).toContain('examples/seed-004/provisioners.yaml: Provisioner/addons-ondemand: ok');
    expect(r.out).toContain('examples/seed-000/nodepool.yaml: NodeClass/multus: ok');
  });

  it.each([
    [
      'bad-operator.yaml',
      'NodePool/bad-operator: spec.template.spec.requirements[0].operator: unknown operator "Equals"',
    ],
    [
      'gt-two-values.yaml',
      'NodePool/gt-two-values: spec.template.spec.requirements[0].values: operator Gt needs exactly one integer value',
    ],
    ['bad-quantity.yaml', 'NodePool/bad-quantity: spec.limits.cpu: invalid quantity "10 cores"'],
    ['unknown-kind.yaml', 'NodeGroup/legacy: apiVersion: unsupported kind NodeGroup'],
    [
      'missing-nodeclass.yaml',
      'NodePool/missing-class: spec.template.spec.nodeClassRef.name: EC2NodeClass "nowhere" is not among',
    ],
    [
      'windows-nodeclass.yaml',
      'EC2NodeClass/windows: spec.amiSelectorTerms[0].alias: alias "windows2022@latest" selects Windows2022 AMIs: joiner does not launch Windows nodes yet',
    ],
    [
      'capacity-reservation.yaml',
      'EC2NodeClass/reserved: spec.capacityReservationSelectorTerms[0]: "id" is mutually exclusive',
    ],
  ])('%s: exits 1 with an error naming file, document and field path', async (file, expected) => {
    const r = await validate(`${FIX}/${file}`, `${FIX}/nodeclass.yaml`);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${FIX}/${file}: ${expected}`);
    expect(r.out).toContain(`${FIX}/nodeclass.yaml: EC2NodeClass/default: ok`);
  });

  it('accepts capacityReservationSelectorTerms (Karpenter v1.3+)', async () => {
    const r = await validate(`${FIX}/capacity-reservation-ok.yaml`);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${FIX}/capacity-reservation-ok.yaml: EC2NodeClass/reserved-ok: ok`);
  });

  it('reports a mix of good and bad documents, warnings included', async () => {
    const r = await validate(`${FIX}/mixed.yaml`, `${FIX}/nodeclass.yaml`);
    expect(r.code).toBe(1);
    expect(r.out).toContain('NodePool/good: ok');
    expect(r.out).toContain('NodePool/bad: invalid');
    expect(r.out).toContain('document 4: invalid');
    expect(r.out).toContain(`warning: ${FIX}/mixed.yaml: NodePool/typo: spec.weigth: unknown field "weigth"`);
  });

  it('has --help', async () => {
    const r = await runJoiner('validate', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('-f, --file <path>');
  });
});
