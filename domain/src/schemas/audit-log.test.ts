import { describe, expect, it } from 'vitest';
import {
  auditLogCursor,
  auditLogMoment,
  auditLogQuerySchema,
  parseAuditLogCursor,
} from './audit-log.ts';

describe('the audit log query', () => {
  it('pages 50 at a time by default, 1 to 100', () => {
    expect(auditLogQuerySchema.parse({}).limit).toBe(50);
    expect(auditLogQuerySchema.parse({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', '1.5', 'x']) {
      expect(auditLogQuerySchema.safeParse({ limit }).success).toBe(false);
    }
  });

  it('takes known actions only', () => {
    expect(auditLogQuerySchema.parse({ action: 'spend_cap.updated' }).action).toBe(
      'spend_cap.updated',
    );
    expect(auditLogQuerySchema.safeParse({ action: 'spend_cap.deleted' }).success).toBe(false);
  });

  it('takes days and date-times within the product years, since before until', () => {
    expect(
      auditLogQuerySchema.safeParse({ since: '2026-11-01', until: '2026-11-30' }).success,
    ).toBe(true);
    expect(auditLogQuerySchema.safeParse({ since: '2026-11-01T10:00:00+02:00' }).success).toBe(
      true,
    );
    for (const since of [
      '2026-02-30',
      '1999-12-31',
      '2101-01-01',
      'yesterday',
      '2026-11-01 10:00',
      // Dates the JavaScript parser takes but the pattern does not (they once threw: a 500).
      '2024-1-1',
      '2024/01/01',
      '-1',
      '0.5',
    ]) {
      expect(auditLogQuerySchema.safeParse({ since }).success, since).toBe(false);
    }
    const reversed = auditLogQuerySchema.safeParse({ since: '2026-11-02', until: '2026-11-01' });
    expect(reversed.error?.issues[0]?.message).toBe('until must be after since');
    // A bare day as `until` includes that day.
    expect(
      auditLogQuerySchema.safeParse({ since: '2026-11-01', until: '2026-11-01' }).success,
    ).toBe(true);
    expect(auditLogMoment('2026-11-01', 'until')).toBe(Date.parse('2026-11-02T00:00:00Z'));
    expect(auditLogMoment('2026-11-01', 'since')).toBe(Date.parse('2026-11-01T00:00:00Z'));
  });

  it('bounds the actor filter', () => {
    expect(auditLogQuerySchema.safeParse({ actor: 'a'.repeat(255) }).success).toBe(false);
    expect(auditLogQuerySchema.safeParse({ actor: 'two words' }).success).toBe(false);
    expect(auditLogQuerySchema.parse({ actor: ' Owner@Example.com ' }).actor).toBe(
      'Owner@Example.com',
    );
  });

  it('reads back the cursor it writes, and refuses any other', () => {
    const id = 'aud_0123456789abcdef01234567';
    const cursor = auditLogCursor(1_763_640_000_123, id);
    expect(parseAuditLogCursor(cursor)).toEqual({ createdAtMs: 1_763_640_000_123, id });
    expect(auditLogQuerySchema.safeParse({ cursor }).success).toBe(true);
    expect(auditLogQuerySchema.safeParse({ cursor: `${cursor}'--` }).success).toBe(false);
    expect(parseAuditLogCursor('1.aud_x')).toBeNull();
  });
});
