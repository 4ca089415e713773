import { formatDay, formatShortDay } from '../../lib/billing-days';
import { cn } from '../../lib/cn';

export interface DailyPoint {
  day: string;
  usage: number;
}

const WIDTH = 300;
const HEIGHT = 80;

/**
 * A small bar chart of one metric over the days of the cycle. Each bar has its value as a native
 * tooltip; screen readers get the same numbers from a table instead of the picture.
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

  return (
    <figure className={cn('space-y-1.5', className)}>
      <div className="flex items-baseline justify-between text-xs text-muted-foreground">
        <span>Daily</span>
        <span className="tabular-nums">Peak {format(max)}</span>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}: ${first && last ? `daily usage from ${formatDay(first.day)} to ${formatDay(last.day)}` : 'no days yet'}`}
        className="h-20 w-full overflow-visible"
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
              className="fill-primary/80 hover:fill-primary"
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
