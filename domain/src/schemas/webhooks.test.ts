import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_EVENT_TYPES,
  formatSignatureHeader,
  parseSignatureHeader,
  signedPayload,
  webhookEndpointCreateSchema,
  webhookEndpointUpdateSchema,
} from './webhooks.ts';

const HEX = 'a'.repeat(64);

describe('the signature header', () => {
  it('signs "t.body" and reads back what it wrote', () => {
    expect(signedPayload(1_767_225_600, '{"a":1}')).toBe('1767225600.{"a":1}');
    const header = formatSignatureHeader(1_767_225_600, HEX);
    expect(header).toBe(`t=1767225600,v1=${HEX}`);
    expect(parseSignatureHeader(header)).toEqual({ timestamp: 1_767_225_600, signatures: [HEX] });
  });

  it('keeps every v1 and skips unknown schemes', () => {
    const other = 'b'.repeat(64);
    expect(parseSignatureHeader(`t=5, v1=${HEX}, v0=zz, v1=${other}`)).toEqual({
      timestamp: 5,
      signatures: [HEX, other],
    });
  });

  it.each([undefined, '', 'v1=' + HEX, 't=5', 't=abc,v1=' + HEX, 't=5,v1=XYZ', `t=5,v1=${HEX}0`])(
    'refuses %j',
    (header) => {
      expect(parseSignatureHeader(header)).toBeNull();
    },
  );
});

describe('endpoint schemas', () => {
  const valid = { url: 'https://hooks.example.com/meterline', events: ['invoice.paid'] };
  const message = (body: unknown) =>
    webhookEndpointCreateSchema.safeParse(body).error?.issues[0]?.message;

  it('accepts https and http (production mode is the server’s check), every event type', () => {
    expect(webhookEndpointCreateSchema.parse(valid)).toEqual(valid);
    expect(message({ ...valid, url: 'http://127.0.0.1:4000/x' })).toBeUndefined();
    expect(message({ ...valid, events: [...WEBHOOK_EVENT_TYPES] })).toBeUndefined();
    expect(webhookEndpointCreateSchema.parse({ ...valid, url: '  https://a.test  ' }).url).toBe(
      'https://a.test',
    );
  });

  it.each([
    [
      { ...valid, url: 'ftp://a.test' },
      'url must be an https:// address (http:// is accepted outside production mode)',
    ],
    [{ ...valid, url: 'https://' + 'a'.repeat(2048) }, 'url must be at most 2048 characters'],
    [{ ...valid, url: 'https://me:secret@a.test' }, 'url must not contain a user name or password'],
    [{ ...valid, events: [] }, 'events must name at least one event type'],
    [
      { ...valid, events: ['invoice.paid', 'invoice.paid'] },
      'events must not repeat an event type',
    ],
    [{ ...valid, description: 'x'.repeat(201) }, 'description must be at most 200 characters'],
  ])('refuses %j: %s', (body, expected) => {
    expect(message(body)).toBe(expected);
  });

  it('a change names at least one field', () => {
    expect(webhookEndpointUpdateSchema.safeParse({}).success).toBe(false);
    expect(webhookEndpointUpdateSchema.parse({ enabled: false })).toEqual({ enabled: false });
  });
});
