/** Time decides money, so it is injected: production reads the system clock, tests and operators move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(
  at: Date,
): Clock & { set(at: Date): void; advance(seconds: number): void } {
  let current = at;
  return {
    now: () => current,
    set: (next) => {
      current = next;
    },
    advance: (seconds) => {
      current = new Date(current.getTime() + seconds * 1000);
    },
  };
}

export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
