import { describe, expect, it } from 'vitest';
import { readPath, targetPayload, targetPayloadText } from '../../../functions/shared/target-input.js';

const event = {
  version: '0',
  id: 'e-1',
  'detail-type': 'EC2 Spot Instance Interruption Warning',
  source: 'aws.ec2',
  detail: { 'instance-id': 'i-0abc', list: [{ a: 1 }], quote: 'say "hi"' },
};
const rule = { name: 'Spot', arn: 'arn:aws:events:us-west-2:111111111111:rule/Spot' };

describe('rule target input', () => {
  it('delivers the whole event without input settings', () => {
    expect(JSON.parse(targetPayloadText(event))).toEqual(event);
  });

  it('delivers constant Input text as is', () => {
    expect(targetPayloadText(event, { Input: '{"sweep":true}' })).toBe('{"sweep":true}');
    expect(targetPayload(event, { Input: '{"sweep":true}' })).toEqual({ sweep: true });
  });

  it('delivers the part of the event an InputPath names', () => {
    expect(targetPayload(event, { InputPath: '$.detail' })).toEqual(event.detail);
    expect(targetPayload(event, { InputPath: '$.detail.list[0].a' })).toBe(1);
    expect(targetPayload(event, { InputPath: "$.detail['instance-id']" })).toBe('i-0abc');
    expect(targetPayload(event, { InputPath: '$.missing' })).toBeNull();
  });

  it('fills an InputTransformer template: strings between its quotes, other values as JSON', () => {
    const text = targetPayloadText(
      event,
      {
        InputTransformer: {
          InputPathsMap: { id: '$.detail.instance-id', list: '$.detail.list', quote: '$.detail.quote' },
          InputTemplate:
            '{"instance":"<id>","list":<list>,"q":"<quote>","rule":"<aws.events.rule-name>","e":<aws.events.event.json>}',
        },
      },
      rule,
    );
    expect(JSON.parse(text)).toEqual({
      instance: 'i-0abc',
      list: [{ a: 1 }],
      q: 'say "hi"',
      rule: 'Spot',
      e: event,
    });
    expect(
      targetPayload(event, {
        InputTransformer: { InputPathsMap: { id: '$.id' }, InputTemplate: 'event <id>' },
      }),
    ).toBe('event e-1');
  });

  it('rejects contradictory settings, reserved names and bad paths, naming them', () => {
    expect(() => targetPayloadText(event, { Input: '{}', InputPath: '$' })).toThrow(
      /only one of Input, InputPath may be set/,
    );
    expect(() =>
      targetPayloadText(event, {
        InputTransformer: { InputPathsMap: { 'aws.events.event': '$' }, InputTemplate: '<aws.events.event>' },
      }),
    ).toThrow(/InputPathsMap key 'aws.events.event' is reserved/);
    expect(() => readPath(event, 'detail')).toThrow(/JSONPath 'detail' must start with \$/);
    expect(() => readPath(event, '$..detail')).toThrow(/not valid at '..detail'/);
  });
});
