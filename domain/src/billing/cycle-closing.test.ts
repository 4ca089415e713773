import { describe, expect, it } from 'vitest';
import { cycleClosingMessage } from './cycle-closing.ts';

const END = Date.parse('2026-11-20T12:00:00Z') / 1000;

describe('cycleClosingMessage', () => {
  it('names the end and the close, to the minute, in UTC', () => {
    expect(cycleClosingMessage(END, END + 3600, END + 1200)).toBe(
      'Your billing cycle ended at 12:00 UTC on Nov 20, 2026 and its invoice is being closed. ' +
        'Try the change again after 13:00 UTC on Nov 20, 2026.',
    );
  });

  it('rounds the retry moment up to the minute and names the day the close falls on', () => {
    const end = Date.parse('2026-11-30T23:30:42Z') / 1000;
    expect(cycleClosingMessage(end, end + 3600, end + 60)).toBe(
      'Your billing cycle ended at 23:30 UTC on Nov 30, 2026 and its invoice is being closed. ' +
        'Try the change again after 00:31 UTC on Dec 01, 2026.',
    );
  });

  it('says a few minutes once the close is overdue', () => {
    expect(cycleClosingMessage(END, END + 3600, END + 3600)).toMatch(
      /Try the change again in a few minutes\.$/,
    );
  });
});
