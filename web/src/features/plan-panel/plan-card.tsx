import { useId } from 'react';
import { planCardPrice, type PlanCard as PlanCardData } from '@meterline/domain';
import { Check, ExternalLink } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Tooltip } from '../../components/ui/tooltip';
import { cn } from '../../lib/cn';
import type { PlanCardAction } from './plan-card-action';

export const END_OF_CYCLE_NOTE = 'Takes effect at the end of the billing cycle';

/** One plan: name, price, cost unit, what it includes, its footer and its action. */
export function PlanCard({
  card,
  action,
  onChange,
}: {
  card: PlanCardData;
  action: PlanCardAction;
  onChange: (action: Extract<PlanCardAction, { kind: 'upgrade' | 'downgrade' }>) => void;
}) {
  const headingId = useId();
  const current = action.kind === 'current';
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'flex min-w-0 flex-col rounded-lg border bg-card shadow-card',
        current && 'border-primary/60 ring-1 ring-primary/40',
      )}
    >
      <div className="space-y-3 border-b px-4 py-4">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="text-base font-semibold tracking-tight">
            {card.name}
          </h3>
          {current ? <Badge tone="primary">Current plan</Badge> : null}
          {card.nameBadge && !current ? <Badge>{card.nameBadge}</Badge> : null}
        </div>
        <p className="flex flex-wrap items-baseline gap-x-1.5">
          <span className="text-2xl font-semibold tracking-tight tabular-nums">
            {planCardPrice(card)}
          </span>
          <span className="text-xs text-muted-foreground">{card.costUnit}</span>
        </p>
        <PlanCardButton action={action} href={card.href} onChange={onChange} />
      </div>
      <div className="flex flex-1 flex-col gap-3 px-4 py-4">
        {card.featuresIntro ? (
          <p className="text-xs font-medium text-muted-foreground">{card.featuresIntro}</p>
        ) : null}
        <ul className="space-y-2" aria-label={`${card.name} plan features`}>
          {card.features.map((feature) => {
            const [main, subtext] = typeof feature === 'string' ? [feature, null] : feature;
            return (
              <li key={main} className="flex gap-2">
                <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                <span className="min-w-0">
                  <span className="block">{main}</span>
                  {subtext ? (
                    <span className="block text-xs text-muted-foreground">{subtext}</span>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
        {card.footer ? (
          <p className="mt-auto border-t pt-3 text-xs text-muted-foreground">{card.footer}</p>
        ) : null}
      </div>
    </article>
  );
}

function PlanCardButton({
  action,
  href,
  onChange,
}: {
  action: PlanCardAction;
  href: string | null;
  onChange: (action: Extract<PlanCardAction, { kind: 'upgrade' | 'downgrade' }>) => void;
}) {
  const reasonId = useId();
  const noteId = useId();
  if (action.kind === 'current') {
    return (
      <Button className="w-full" disabled>
        {action.label}
      </Button>
    );
  }
  if (action.kind === 'contact') {
    return (
      <Button className="w-full" asChild>
        <a href={href ?? undefined} target="_blank" rel="noopener noreferrer">
          {action.label}
          <ExternalLink aria-hidden className="text-muted-foreground" />
        </a>
      </Button>
    );
  }
  const variant = action.kind === 'upgrade' ? 'primary' : 'secondary';
  const laterNote =
    action.kind === 'downgrade' && action.effectiveAt === 'end_of_billing_period' ? (
      <p id={noteId} className="text-xs text-muted-foreground">
        {END_OF_CYCLE_NOTE}
      </p>
    ) : null;
  if (action.blocker) {
    return (
      <div className="space-y-1.5">
        <Tooltip content={action.blocker}>
          {/* A disabled button takes no focus or hover: the wrapper carries the tooltip. */}
          <span tabIndex={0} aria-describedby={reasonId} className="flex w-full rounded-md">
            <Button variant={variant} className="w-full" disabled>
              {action.label}
            </Button>
            <span id={reasonId} className="sr-only">
              {action.blocker}
            </span>
          </span>
        </Tooltip>
        {laterNote}
      </div>
    );
  }
  return (
    <div className="space-y-1.5">
      <Button
        variant={variant}
        className="w-full"
        aria-describedby={laterNote ? noteId : undefined}
        onClick={() => onChange(action)}
      >
        {action.label}
      </Button>
      {laterNote}
    </div>
  );
}
