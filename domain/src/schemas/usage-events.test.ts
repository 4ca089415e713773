import { describe, expect, it } from 'vitest';
import {
  MAX_USAGE_EVENT_AGE_SECONDS,
  MAX_USAGE_EVENT_LEAD_SECONDS,
  usageEventTimeRefusalMessage,
  usageEventTimeRefusals,
} from './usage-events.ts';

const NOW = Date.UTC(2026, 10, 20, 12) / 1000; // 2026-11-20T12:00:00Z
const DAY = 86_400;

describe('the time bounds of a usage event', () => {
  it('are 60 days before its arrival and 10 minutes after, both kept', () => {
    expect(MAX_USAGE_EVENT_AGE_SECONDS).toBe(60 * DAY);
    expect(MAX_USAGE_EVENT_LEAD_SECONDS).toBe(600);
    const events = [
      { id: 'oldest-kept', timestamp: NOW - 60 * DAY },
      { id: 'now', timestamp: NOW },
      { id: 'latest-kept', timestamp: NOW + 600 },
    ];
    expect(usageEventTimeRefusals(events, NOW)).toEqual([]);
  });

  it('refuse a second older or a second further ahead, by place, id, time and reason', () => {
    const events = [
      { id: 'fine', timestamp: NOW - 3600 },
      { id: 'too-old', timestamp: NOW - 60 * DAY - 1 },
      { id: 'ahead', timestamp: NOW + 601 },
    ];
    expect(usageEventTimeRefusals(events, NOW)).toEqual([
      { index: 1, id: 'too-old', timestamp: NOW - 60 * DAY - 1, reason: 'too_old' },
      { index: 2, id: 'ahead', timestamp: NOW + 601, reason: 'too_far_ahead' },
    ]);
  });

  it('take the moment of arrival as given: a fraction of a second moves neither bound past a whole one', () => {
    expect(usageEventTimeRefusals([{ id: 'a', timestamp: NOW + 600 }], NOW + 0.5)).toEqual([]);
    expect(usageEventTimeRefusals([{ id: 'a', timestamp: NOW - 60 * DAY }], NOW + 0.5)).toEqual([
      { index: 0, id: 'a', timestamp: NOW - 60 * DAY, reason: 'too_old' },
    ]);
  });

  it('are stated in the refusal: each event by its place and id, its time, the bound and now', () => {
    const refusals = usageEventTimeRefusals(
      [
        { id: 'fine', timestamp: NOW },
        { id: 'evt_1', timestamp: Date.UTC(2026, 0, 1) / 1000 },
        { id: 'evt_2', timestamp: NOW + DAY },
      ],
      NOW,
    );
    expect(usageEventTimeRefusalMessage(refusals, NOW)).toBe(
      'events[1] (id evt_1): timestamp 2026-01-01T00:00:00Z is more than 60 days before now ' +
        '(2026-11-20T12:00:00Z); events[2] (id evt_2): timestamp 2026-11-21T12:00:00Z is more than ' +
        '10 minutes after now (2026-11-20T12:00:00Z). An event may be stamped at most 60 days before ' +
        'the batch arrives and at most 10 minutes after: a batch holding any other is refused whole ' +
        '(400, naming such events) and nothing of it is stored.',
    );
  });

  it('names at most 10 refused events and counts the rest', () => {
    const events = Array.from({ length: 25 }, (_, index) => ({ id: `e${index}`, timestamp: 0 }));
    const message = usageEventTimeRefusalMessage(usageEventTimeRefusals(events, NOW), NOW);
    expect(message).toContain('events[9] (id e9)');
    expect(message).not.toContain('events[10]');
    expect(message).toContain('; and 15 more events outside these bounds.');
  });
});
