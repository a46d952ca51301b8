import type { CreateLaunchTemplateCommandInput, LaunchTemplate } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import type { Ec2Api } from '../../../../functions/adapters/aws/ec2-api.js';
import { LaunchTemplateProvider } from '../../../../functions/adapters/aws/launch-template-provider.js';
import type { LaunchTemplateSpec } from '../../../../functions/core/launch/launch-template.js';

/** An EC2 double holding launch templates, counting the calls, answering after a turn of the loop. */
function fakeEc2(options: { failCreate?: Error } = {}) {
  const templates = new Map<string, LaunchTemplate>();
  const calls = { describe: 0, create: 0 };
  const later = <T>(value: () => T): Promise<T> =>
    new Promise((resolve, reject) =>
      setImmediate(() => {
        try {
          resolve(value());
        } catch (error) {
          reject(error);
        }
      }),
    );
  const api = {
    describeLaunchTemplates: (names: string[]) => {
      calls.describe++;
      return later(() =>
        names.flatMap((n) => (templates.has(n) ? [templates.get(n) as LaunchTemplate] : [])),
      );
    },
    createLaunchTemplate: (input: CreateLaunchTemplateCommandInput) => {
      calls.create++;
      return later(() => {
        if (options.failCreate) throw options.failCreate;
        const name = input.LaunchTemplateName as string;
        if (templates.has(name)) throw Object.assign(new Error('exists'), { name: 'AlreadyExistsException' });
        const lt = { LaunchTemplateName: name, LaunchTemplateId: `lt-${templates.size + 1}` };
        templates.set(name, lt);
        return lt;
      });
    },
  } as Partial<Ec2Api> as Ec2Api;
  return { api, calls, templates };
}

const spec = (name: string): LaunchTemplateSpec =>
  ({
    name,
    data: {},
    tags: { 'joiner.sh/cluster': 'c' },
  }) as unknown as LaunchTemplateSpec;

describe('launch templates, get or create', () => {
  it('concurrent launches needing the same templates make one lookup and one creation per name', async () => {
    const ec2 = fakeEc2();
    const provider = new LaunchTemplateProvider(ec2.api);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => provider.ensure([spec('a'), spec(i % 2 ? 'b' : 'a')])),
    );
    // The first launch looks up `a`, the second `b`; the 18 others wait for those lookups.
    expect(ec2.calls).toEqual({ describe: 2, create: 2 });
    for (const ids of results) expect(ids.get('a')).toBe(ec2.templates.get('a')?.LaunchTemplateId);
    expect(results[1].get('b')).toBe(ec2.templates.get('b')?.LaunchTemplateId);
    // Known now: no call at all.
    await provider.ensure([spec('a'), spec('b')]);
    expect(ec2.calls).toEqual({ describe: 2, create: 2 });
  });

  it('a failed creation fails every launch waiting for it, and the next launch tries again', async () => {
    const ec2 = fakeEc2({
      failCreate: Object.assign(new Error('not authorized'), { name: 'UnauthorizedOperation' }),
    });
    const provider = new LaunchTemplateProvider(ec2.api);
    const outcomes = await Promise.allSettled([provider.ensure([spec('a')]), provider.ensure([spec('a')])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(ec2.calls).toEqual({ describe: 1, create: 1 });
    await expect(provider.ensure([spec('a')])).rejects.toThrow('not authorized');
    expect(ec2.calls).toEqual({ describe: 2, create: 2 });
  });

  it('a template another function instance created in the meantime is found, not created again', async () => {
    const ec2 = fakeEc2();
    ec2.templates.set('a', { LaunchTemplateName: 'a', LaunchTemplateId: 'lt-other' });
    const ids = await new LaunchTemplateProvider(ec2.api).ensure([spec('a')]);
    expect(ids.get('a')).toBe('lt-other');
    expect(ec2.calls).toEqual({ describe: 1, create: 0 });
  });
});
