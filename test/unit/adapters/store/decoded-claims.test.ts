import { describe, expect, it } from 'vitest';
import { DecodedClaims, type StoredClaim } from '../../../../functions/adapters/store/decoded-claims.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const parse = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as StoredClaim;

describe('DecodedClaims', () => {
  it('decodes the same bytes of an item once, and again when they change', () => {
    const cache = new DecodedClaims();
    let decodes = 0;
    const decode = (b: Uint8Array) => {
      decodes++;
      return parse(b);
    };
    const v1 = bytes('{"id":"a","timers":{"drainStep":1}}');
    const first = cache.decode('a', v1, decode);
    expect(cache.decode('a', Uint8Array.from(v1), decode)).toBe(first);
    expect(decodes).toBe(1);
    const v2 = bytes('{"id":"a","timers":{"drainStep":2}}');
    expect(cache.decode('a', v2, decode).timers).toEqual({ drainStep: 2 });
    expect(decodes).toBe(2);
  });

  it('hands out frozen claims, nested parts included', () => {
    const cache = new DecodedClaims();
    const claim = cache.decode(
      'a',
      bytes('{"id":"a","pods":[{"name":"p"}],"timers":{}}'),
      parse,
    ) as unknown as {
      id: string;
      pods: { name: string }[];
      timers: Record<string, number>;
    };
    expect(() => {
      claim.id = 'b';
    }).toThrow(TypeError);
    expect(() => claim.pods.push({ name: 'q' })).toThrow(TypeError);
    expect(() => {
      claim.timers.drainStep = 1;
    }).toThrow(TypeError);
  });

  it('keeps its own copy of the bytes and at most its limit of claims, the oldest going first', () => {
    const cache = new DecodedClaims(2);
    const b = bytes('{"id":"a"}');
    const a = cache.decode('a', b, parse);
    b[2] = 'x'.charCodeAt(0); // the caller reuses its buffer: the kept bytes do not change
    expect(cache.decode('a', bytes('{"id":"a"}'), parse)).toBe(a);
    cache.decode('b', bytes('{"id":"b"}'), parse);
    cache.decode('c', bytes('{"id":"c"}'), parse);
    expect(cache.size).toBe(2);
    expect(cache.decode('a', bytes('{"id":"a"}'), parse)).not.toBe(a);
  });

  it('keeps nothing for bytes that do not decode', () => {
    const cache = new DecodedClaims();
    const fail = () => {
      throw new Error('not a claim');
    };
    expect(() => cache.decode('a', bytes('x'), fail)).toThrow('not a claim');
    expect(cache.size).toBe(0);
  });
});
