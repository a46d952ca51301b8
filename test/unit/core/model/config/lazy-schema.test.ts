import { describe, expect, it } from 'vitest';
import { CONFIG_KINDS, findConfigKind } from '../../../../../functions/core/model/config/kinds.js';
import { lazySchema } from '../../../../../functions/core/model/config/schema/lazy-schema.js';

describe('configuration schemas are built on first use', () => {
  it('lazySchema builds nothing until asked, then builds once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return { built: builds };
    });
    expect(builds).toBe(0);
    expect(schema()).toBe(schema());
    expect(builds).toBe(1);
  });

  it('each kind gives one schema instance; karpenter.sh/v1 and joiner.sh/v1 NodePools share theirs', () => {
    for (const kind of CONFIG_KINDS) expect(kind.schema()).toBe(kind.schema());
    expect(findConfigKind('joiner.sh/v1', 'NodePool')?.schema()).toBe(
      findConfigKind('karpenter.sh/v1', 'NodePool')?.schema(),
    );
    const v1 = findConfigKind('karpenter.k8s.aws/v1', 'EC2NodeClass')?.schema();
    expect(
      v1?.safeParse({
        apiVersion: 'karpenter.k8s.aws/v1',
        kind: 'EC2NodeClass',
        metadata: { name: 'a' },
        spec: {},
      }).success,
    ).toBe(true);
  });
});
