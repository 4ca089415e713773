import { describe, expect, it } from 'vitest';
import { emailOutboxQuerySchema } from './email-outbox.ts';

describe('emailOutboxQuerySchema', () => {
  it('takes an address, an ISO moment and a bounded limit', () => {
    expect(
      emailOutboxQuerySchema.parse({
        to: 'a@b.example',
        since: '2026-12-01T00:00:00Z',
        limit: '5',
      }),
    ).toEqual({ to: 'a@b.example', since: '2026-12-01T00:00:00Z', limit: 5 });
    expect(emailOutboxQuerySchema.parse({}).limit).toBe(100);
  });

  it('names the field that is wrong', () => {
    const message = (input: Record<string, unknown>) =>
      emailOutboxQuerySchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ to: 'nobody' })).toBe('to must be an email address');
    expect(message({ since: 'yesterday' })).toMatch(/^since must be an ISO 8601 date-time/);
    expect(message({ since: `2026-12-01T00:00:00${'0'.repeat(50)}Z` })).toMatch(/^since/);
    expect(message({ limit: '501' })).toBe('limit must be between 1 and 500');
    expect(message({ limit: '1.5' })).toBe('limit must be a whole number');
  });
});
