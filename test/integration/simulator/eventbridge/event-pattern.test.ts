import { describe, expect, it } from 'vitest';
import { EVENT_RULES } from '../../../../functions/shared/event-rules.js';
import {
  compileEventPattern,
  InvalidEventPatternError,
  matchesEventPattern,
} from '../../../../functions/simulator/eventbridge/event-pattern.js';

const event = {
  version: '0',
  source: 'aws.ec2',
  'detail-type': 'EC2 Instance State-change Notification',
  resources: ['arn:aws:ec2:us-west-2:000000000000:instance/i-0abc'],
  detail: { 'instance-id': 'i-0abc', state: 'terminated', count: 5, tags: ['a', 'b'], empty: null },
};

const matches = (pattern: unknown) => matchesEventPattern(pattern, event);

describe('event patterns', () => {
  it('matches exact values, lists and nested detail fields', () => {
    expect(matches({ source: ['aws.ec2'] })).toBe(true);
    expect(matches({ source: ['aws.health', 'aws.ec2'] })).toBe(true);
    expect(matches({ source: ['aws.ec2'], detail: { state: ['running'] } })).toBe(false);
    expect(matches({ detail: { state: ['terminated'], 'instance-id': ['i-0abc'] } })).toBe(true);
    expect(matches({ detail: { count: [5] } })).toBe(true);
    expect(matches({ detail: { count: ['5'] } })).toBe(false);
    expect(matches({ detail: { empty: [null] } })).toBe(true);
  });

  it('matches an array in the event when any element matches', () => {
    expect(matches({ detail: { tags: ['b'] } })).toBe(true);
    expect(matches({ detail: { tags: ['c'] } })).toBe(false);
    expect(matches({ resources: [{ suffix: 'i-0abc' }] })).toBe(true);
  });

  it('supports prefix, suffix and equals-ignore-case', () => {
    expect(matches({ 'detail-type': [{ prefix: 'EC2 Instance' }] })).toBe(true);
    expect(matches({ 'detail-type': [{ prefix: 'ec2' }] })).toBe(false);
    expect(matches({ 'detail-type': [{ prefix: { 'equals-ignore-case': 'ec2 instance' } }] })).toBe(true);
    expect(matches({ detail: { state: [{ suffix: 'nated' }] } })).toBe(true);
    expect(matches({ source: [{ 'equals-ignore-case': 'AWS.EC2' }] })).toBe(true);
    expect(matches({ source: [{ 'equals-ignore-case': 'aws.ec' }] })).toBe(false);
  });

  it('supports anything-but with values, lists and prefixes, and requires the field', () => {
    expect(matches({ detail: { state: [{ 'anything-but': 'running' }] } })).toBe(true);
    expect(matches({ detail: { state: [{ 'anything-but': ['running', 'terminated'] }] } })).toBe(false);
    expect(matches({ detail: { state: [{ 'anything-but': { prefix: 'term' } }] } })).toBe(false);
    expect(matches({ detail: { state: [{ 'anything-but': { prefix: 'run' } }] } })).toBe(true);
    expect(matches({ detail: { missing: [{ 'anything-but': 'x' }] } })).toBe(false);
    expect(matches({ detail: { count: [{ 'anything-but': 5 }] } })).toBe(false);
  });

  it('supports exists true and false, including on missing parents', () => {
    expect(matches({ detail: { state: [{ exists: true }] } })).toBe(true);
    expect(matches({ detail: { state: [{ exists: false }] } })).toBe(false);
    expect(matches({ detail: { nope: [{ exists: false }] } })).toBe(true);
    expect(matches({ nothing: { deeper: [{ exists: false }] } })).toBe(true);
    expect(matches({ nothing: { deeper: [{ exists: true }] } })).toBe(false);
  });

  it('supports numeric ranges and rejects non-numbers', () => {
    expect(matches({ detail: { count: [{ numeric: ['>', 0, '<=', 5] }] } })).toBe(true);
    expect(matches({ detail: { count: [{ numeric: ['<', 5] }] } })).toBe(false);
    expect(matches({ detail: { count: [{ numeric: ['=', 5] }] } })).toBe(true);
    expect(matches({ detail: { state: [{ numeric: ['>', 0] }] } })).toBe(false);
  });

  it('supports wildcard and $or', () => {
    expect(matches({ 'detail-type': [{ wildcard: 'EC2 * Notification' }] })).toBe(true);
    expect(matches({ $or: [{ source: ['x'] }, { detail: { state: ['terminated'] } }] })).toBe(true);
    expect(matches({ $or: [{ source: ['x'] }, { detail: { state: ['running'] } }] })).toBe(false);
  });

  it('rejects bad patterns with the field path', () => {
    const bad = (pattern: unknown, text: RegExp) => {
      expect(() => compileEventPattern(pattern)).toThrow(InvalidEventPatternError);
      expect(() => compileEventPattern(pattern)).toThrow(text);
    };
    bad('source', /JSON object/);
    bad({ source: 'aws.ec2' }, /source: leaf must be an array/);
    bad({ detail: { state: [] } }, /detail\.state: empty array/);
    bad(
      { detail: { count: [{ numeric: ['>>', 1] }] } },
      /detail\.count\[0\]\.numeric\[0\]: unknown comparison/,
    );
    bad({ detail: { count: [{ between: 1 }] } }, /unknown operator 'between'/);
    bad({ source: [{ exists: 'yes' }] }, /exists: must be true or false/);
    bad({ source: [{ prefix: 'a', suffix: 'b' }] }, /exactly one operator/);
  });

  it('every shared rule compiles and routes its intended event', () => {
    for (const rule of EVENT_RULES) expect(() => compileEventPattern(rule.pattern)).not.toThrow();
    const stateChange = EVENT_RULES.find((r) => r.id === 'InstanceStateChange');
    expect(matchesEventPattern(stateChange?.pattern, event)).toBe(true);
    const running = { ...event, detail: { ...event.detail, state: 'running' } };
    expect(matchesEventPattern(stateChange?.pattern, running)).toBe(false);
  });
});
