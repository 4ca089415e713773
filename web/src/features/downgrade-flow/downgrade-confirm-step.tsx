import {
  addonsLostOnDowngrade,
  CREDITED_TO_BALANCE_LABEL,
  downgradeRestartsProjects,
  featuresLostOnDowngrade,
  formatCents,
  formatInvoiceDate,
  planName,
  type PlanId,
  type SubscriptionPreview,
} from '@meterline/domain';
import { Minus } from 'lucide-react';
import { Notice } from '../../components/ui/notice';

/**
 * What the confirm modal states before anything is sent: the features of the current plan that go,
 * the add-ons removed per project, the restart of projects on the free instance, and, for an
 * organization billed via the hosting partner, the date the change takes effect.
 */
export function DowngradeConsequences({
  preview,
  currentPlan,
  targetPlan,
}: {
  preview: SubscriptionPreview;
  currentPlan: PlanId;
  targetPlan: PlanId;
}) {
  const features = featuresLostOnDowngrade(currentPlan, targetPlan);
  const addons = addonsLostOnDowngrade(preview.addons_to_remove);
  const restarts = downgradeRestartsProjects(targetPlan, preview.active_projects);
  const scheduled = preview.effective_at === 'end_of_billing_period';
  const current = planName(currentPlan);
  const target = planName(targetPlan);

  return (
    <div className="space-y-5">
      {scheduled ? (
        <Notice tone="info" title={`Takes effect on ${formatInvoiceDate(preview.effective_date)}`}>
          This organization is billed through a hosting partner, so the downgrade is scheduled for
          the end of the billing cycle. Until then you keep everything in the {current} plan, and
          you can cancel the scheduled change from the subscription section.
        </Notice>
      ) : null}

      {features.length > 0 ? (
        <section aria-labelledby="downgrade-features-heading" className="space-y-2">
          <h3 id="downgrade-features-heading" className="font-medium">
            {`You lose what the ${current} plan includes`}
          </h3>
          <ul className="space-y-1.5">
            {features.map((feature) => (
              <li key={feature} className="flex gap-2 text-muted-foreground">
                <Minus aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {addons.length > 0 ? (
        <section aria-labelledby="downgrade-addons-heading" className="space-y-2">
          <h3 id="downgrade-addons-heading" className="font-medium">
            Add-ons removed from your projects
          </h3>
          <ul className="divide-y rounded-md border">
            {addons.map((project) => (
              <li key={project.project_ref} className="space-y-1 px-3 py-2.5">
                <p className="font-medium break-words">{project.project_name}</p>
                <ul
                  aria-label={`Add-ons of ${project.project_name}`}
                  className="flex flex-wrap gap-1.5"
                >
                  {project.addons.map((addon) => (
                    <li
                      key={addon.variant.identifier}
                      className="rounded-md bg-muted px-2 py-0.5 text-xs text-muted-foreground"
                    >
                      {addon.type === 'compute_instance'
                        ? `${addon.variant.name} compute`
                        : addon.variant.name}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {scheduled ? null : <CycleRestart preview={preview} targetPlan={targetPlan} />}

      {scheduled ? null : <DowngradeCharge preview={preview} />}

      {restarts ? (
        <Notice tone="warning" title="Projects restart on the free instance">
          {scheduled ? `On ${formatInvoiceDate(preview.effective_date)}, active` : 'Active'}{' '}
          projects on a paid compute size move to the free instance. Each restarts and is
          unavailable for a few minutes.
        </Notice>
      ) : null}

      {targetPlan === 'free' ? (
        <p className="text-muted-foreground">
          On the {target} plan, projects are paused after a week of inactivity.
        </p>
      ) : null}
    </div>
  );
}

/** A period as the billing page shows one: "Nov 12, 2026 – Dec 12, 2026". */
function period(start: number, end: number): string {
  return `${formatInvoiceDate(start)} – ${formatInvoiceDate(end)}`;
}

/**
 * What an immediate change does besides its invoice: the billing cycle restarts
 * today (the new plan's fee covers the new cycle), and a change to Pro leaves the spend cap off
 * (Team to Pro is the pay-as-you-go tier).
 */
function CycleRestart({
  preview,
  targetPlan,
}: {
  preview: SubscriptionPreview;
  targetPlan: PlanId;
}) {
  const fee = preview.breakdown.find((line) => line.kind === 'plan_fee');
  const capOff = targetPlan === 'pro' && preview.tier === 'tier_payg';
  return (
    <Notice tone="info" title="Your billing cycle restarts today">
      <span className="block">
        {fee
          ? `The new cycle runs ${period(fee.period_start, fee.period_end)}; the ${planName(targetPlan)} plan's fee covers it, and your invoices follow that date from now on.`
          : 'The current cycle ends today, and your invoices follow that date from now on.'}
      </span>
      {capOff ? (
        <span className="mt-1 block">
          The spend cap will be off: usage beyond the Pro plan&apos;s quota is billed at the end of
          each cycle. You can turn it on under Cost control.
        </span>
      ) : null}
    </Notice>
  );
}

/**
 * What the change invoice settles today, from the preview (what the change is charged, to the cent):
 * its lines, the credit applied, and what is charged to the card or added to the credit balance.
 */
function DowngradeCharge({ preview }: { preview: SubscriptionPreview }) {
  return (
    <section aria-labelledby="downgrade-charge-heading" className="space-y-2">
      <h3 id="downgrade-charge-heading" className="font-medium">
        Settled today
      </h3>
      <table className="w-full text-sm">
        <caption className="sr-only">The change invoice&apos;s lines</caption>
        <tbody>
          {preview.breakdown.map((line) => (
            <tr key={line.description} className="border-b last:border-b-0">
              <th scope="row" className="py-1.5 pr-3 text-left font-normal text-muted-foreground">
                <span className="block">{line.description}</span>{' '}
                <span className="block text-xs">{period(line.period_start, line.period_end)}</span>
              </th>
              <td className="py-1.5 text-right tabular-nums">{formatCents(line.total_price)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t">
          <tr>
            <th scope="row" className="pt-2 text-left font-medium">
              Total
            </th>
            <td className="pt-2 text-right font-medium tabular-nums">
              {formatCents(preview.total)}
            </td>
          </tr>
          {preview.credit_applied > 0 ? (
            <tr>
              <th scope="row" className="pt-1 text-left font-normal text-muted-foreground">
                Credit applied
              </th>
              <td className="pt-1 text-right tabular-nums">
                {formatCents(-preview.credit_applied)}
              </td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" className="pt-1 text-left font-medium">
              Charged today
            </th>
            <td className="pt-1 text-right font-medium tabular-nums">
              {formatCents(preview.charge_today)}
            </td>
          </tr>
          {preview.credited_to_balance > 0 ? (
            <tr>
              <th scope="row" className="pt-1 text-left font-normal text-muted-foreground">
                {CREDITED_TO_BALANCE_LABEL}
              </th>
              <td className="pt-1 text-right tabular-nums">
                {formatCents(preview.credited_to_balance)}
              </td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      {preview.credited_to_balance > 0 ? (
        <p className="text-muted-foreground">
          The credit pays your future invoices first; it is not refunded to a card.
        </p>
      ) : null}
    </section>
  );
}
