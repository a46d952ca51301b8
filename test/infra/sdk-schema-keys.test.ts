import { describe, expect, it } from 'vitest';
import { literalSchemaKeys } from '../../lib/sdk-schema-keys.js';

describe('literalSchemaKeys', () => {
  it('writes computed keys naming string constants as the strings they stand for', () => {
    const source = [
      'const _xN = "xmlName";',
      'const _eQN = "ec2QueryName";',
      'let _other = "not a constant of the module";',
      'export var A$ = [3, n0, _A, 0, [_B], [[0, { [_eQN]: `Return`, [_xN]: _r }]]];',
      'export var B$ = [3, n0, _B, 0, [], [[() => C, { [_xN]: _cS, [_other]: 1, [_unknown]: 2 }]]];',
    ].join('\n');
    const out = literalSchemaKeys(source);
    expect(out).toContain('{ "ec2QueryName": `Return`, "xmlName": _r }');
    expect(out).toContain('{ "xmlName": _cS, [_other]: 1, [_unknown]: 2 }');
  });

  it('leaves a module without such keys as it is', () => {
    const source = 'const _a = "a";\nexport const x = { a: _a, [Symbol.iterator]: 1 };';
    expect(literalSchemaKeys(source)).toBe(source);
  });
});
