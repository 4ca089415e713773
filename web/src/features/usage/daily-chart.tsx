import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatDay, formatShortDay } from '../../lib/billing-days';
import { cn } from '../../lib/cn';

export interface DailyPoint {
  day: string;
  usage: number;
}

const WIDTH = 300;
const HEIGHT = 80;

/**
 * A small bar chart of one metric over the days of the cycle. The day under the pointer, or chosen
 * with the arrow keys once the chart has focus, shows its value above the chart; screen readers get
 * the same numbers from a table instead of the picture.
 */
export function DailyChart({
  label,
  points,
  format,
  until,
  className,
}: {
  label: string;
  points: readonly DailyPoint[];
  format: (usage: number) => string;
  /** The last day that has happened (YYYY-MM-DD): later days are drawn empty, not listed. */
  until?: string;
  className?: string;
}) {
  const max = Math.max(0, ...points.map((point) => point.usage));
  const slot = WIDTH / Math.max(1, points.length);
  const gap = Math.min(2, slot * 0.25);
  const first = points[0];
  const last = points.at(-1);
  // Days after `until` have not happened: the keys stop at the last one that has.
  const lastKnown = Math.max(
    0,
    points.findLastIndex((point) => until === undefined || point.day <= until),
  );
  const [active, setActive] = useState<number | null>(null);
  const shown = active === null ? undefined : points[active];

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || points.length === 0) return;
    const index = Math.floor(((event.clientX - box.left) / box.width) * points.length);
    setActive(Math.min(lastKnown, Math.max(0, index)));
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const from = active ?? lastKnown;
    const next =
      event.key === 'ArrowLeft'
        ? from - 1
        : event.key === 'ArrowRight'
          ? from + 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? lastKnown
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(Math.min(lastKnown, Math.max(0, next)));
  };

  return (
    <figure className={cn('space-y-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3 text-xs text-muted-foreground">
        <span aria-live="polite" className={cn('tabular-nums', shown && 'text-foreground')}>
          {shown ? `${formatDay(shown.day)}: ${format(shown.usage)}` : 'Daily'}
        </span>
        <span className="shrink-0 tabular-nums">Peak {format(max)}</span>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        tabIndex={0}
        aria-label={`${label}: ${first && last ? `daily usage from ${formatDay(first.day)} to ${formatDay(last.day)}` : 'no days yet'}`}
        className="h-20 w-full touch-none overflow-visible rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        onPointerMove={onPointerMove}
        onPointerDown={onPointerMove}
        onPointerLeave={(event) => {
          if (document.activeElement !== event.currentTarget) setActive(null);
        }}
        onFocus={() => setActive((current) => current ?? lastKnown)}
        onBlur={() => setActive(null)}
        onKeyDown={onKeyDown}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-border" strokeWidth={1} />
        {points.map((point, index) => {
          const height =
            max > 0 ? Math.max((point.usage / max) * HEIGHT, point.usage > 0 ? 1.5 : 0) : 0;
          return (
            <rect
              key={point.day}
              x={index * slot + gap / 2}
              y={HEIGHT - height}
              width={Math.max(0.5, slot - gap)}
              height={height}
              rx={Math.min(1.5, (slot - gap) / 2)}
              className={index === active ? 'fill-primary' : 'fill-primary/80'}
            >
              <title>{`${formatDay(point.day)}: ${format(point.usage)}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last ? (
        <figcaption className="flex justify-between text-xs text-muted-foreground">
          <span>{formatShortDay(first.day)}</span>
          <span>{formatShortDay(last.day)}</span>
        </figcaption>
      ) : null}
      <table className="sr-only">
        <caption>{`${label} per day`}</caption>
        <tbody>
          {points
            .filter((point) => until === undefined || point.day <= until)
            .map((point) => (
              <tr key={point.day}>
                <th scope="row">{formatDay(point.day)}</th>
                <td>{format(point.usage)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
