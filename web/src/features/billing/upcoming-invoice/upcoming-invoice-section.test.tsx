import {
  computeUpcomingInvoice,
  type Organization,
  type Subscription,
  type UpcomingInvoice,
} from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recorded } from '../../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../../test/render-app';
import { seedBilling } from '../../../../test/seed-billing';

function renderBreakdown(
  organization: Organization,
  seed: { subscription?: Subscription; upcomingInvoice?: UpcomingInvoice } = {},
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
  });
  seedBilling(queryClient, organization.slug, seed);
  const view = renderApp(`/org/${organization.slug}/billing`, queryClient);
  return { ...view, section: screen.getByRole('region', { name: 'Upcoming invoice' }) };
}

/** The text of each top-level row: its name and its amount, as a person reads the table. */
function rowAmount(section: HTMLElement, name: string): string {
  const cell = within(section).getByText(name, { selector: 'button, span' });
  const row = cell.closest('tr') as HTMLElement;
  const cells = within(row).getAllByRole('cell');
  return cells.at(-1)?.textContent ?? '';
}

function totals(section: HTMLElement): Record<string, string> {
  const rows = within(section).getAllByRole('rowheader');
  return Object.fromEntries(
    rows.map((header) => [
      header.firstChild?.textContent ?? '',
      (header.closest('tr') as HTMLElement).lastElementChild?.textContent ?? '',
    ]),
  );
}

describe('upcoming invoice section', () => {
  afterEach(() => vi.useRealTimers());

  it('groups acme-pro’s lines as the spec says, to the cent of the API', () => {
    const { section } = renderBreakdown(recorded.organization.acmePro, {
      subscription: recordedBilling.subscription.acmePro,
      upcomingInvoice: recordedBilling.upcomingInvoice.acmePro,
    });
    // Recorded: plan 2500; compute 401 + 614 + 2450 - 1000 (credits); replica 614; branch 105;
    // custom domain 415; total 6099, projected 13008.
    expect(rowAmount(section, 'Pro Plan')).toBe('$25.00');
    expect(rowAmount(section, 'Compute')).toBe('$24.65');
    expect(rowAmount(section, 'Read replica compute')).toBe('$6.14');
    expect(rowAmount(section, 'Branching compute')).toBe('$1.05');
    expect(rowAmount(section, 'Custom Domain')).toBe('$4.15');
    // acme-pro holds $50.00 of credit: what it covers of the projection, and what is left for the
    // card.
    expect(totals(section)).toEqual({
      'Total so far': '$60.99',
      'Projected total': '$130.08',
      'Credit applied': '-$50.00',
      'Expected charge': '$80.08',
    });

    const lines = recordedBilling.upcomingInvoice.acmePro.lines;
    const sum = lines.reduce((total, line) => total + line.amount, 0);
    expect(sum).toBe(recordedBilling.upcomingInvoice.acmePro.amount_total);
  });

  it('expands a group into its lines and a line into its projects', async () => {
    const { section, user } = renderBreakdown(recorded.organization.acmePro, {
      subscription: recordedBilling.subscription.acmePro,
      upcomingInvoice: recordedBilling.upcomingInvoice.acmePro,
    });
    const compute = within(section).getByRole('button', { name: 'Compute' });
    expect(compute).toHaveAttribute('aria-expanded', 'false');
    expect(within(section).queryByRole('row', { name: /Compute Hours Micro/ })).toBeNull();

    await user.click(compute);
    expect(compute).toHaveAttribute('aria-expanded', 'true');
    const medium = within(section).getByRole('row', { name: /Compute Hours Medium/ });
    expect(medium).toHaveTextContent('298.00 hours');
    expect(medium).toHaveTextContent('$0.0822 per hour');
    expect(medium).toHaveTextContent('$24.50');
    expect(within(section).getByRole('row', { name: /Compute Credits/ })).toHaveTextContent(
      '-$10.00',
    );

    await user.click(within(section).getByRole('button', { name: 'Compute Hours Medium' }));
    const project = within(section).getByRole('link', { name: 'Acme Pro Project 3' });
    expect(project).toHaveAttribute('href', '/project/acmepro3');
    expect(project.closest('tr')).toHaveTextContent('$24.50');
  });

  it('lists payg-co’s overage lines one by one', () => {
    const { section } = renderBreakdown(recordedBilling.organization.paygCo, {
      subscription: recordedBilling.subscription.paygCo,
      upcomingInvoice: recordedBilling.upcomingInvoice.paygCo,
    });
    // Compute 401 + 614, less the $10.00 of compute credits.
    expect(rowAmount(section, 'Compute')).toBe('$0.15');
    expect(rowAmount(section, 'Egress')).toBe('$6.17');
    expect(rowAmount(section, 'Database Size')).toBe('$0.70');
    expect(rowAmount(section, 'Monthly Active Users')).toBe('$103.93');
    // Usage, quota and billable quantity in the price's unit: 68.55 GB × $0.09 = $6.17.
    const egress = within(section).getByRole('row', { name: /Egress/ });
    expect(egress).toHaveTextContent('68.55 GB billed318.55 GB used − 250 GB included');
    expect(egress).toHaveTextContent('$0.09 per GB');
    expect(within(section).getByRole('row', { name: /Monthly Active Users/ })).toHaveTextContent(
      '31,977 MAU billed131,977 MAU used − 100,000 MAU included$0.00325 per MAU$103.93',
    );
    expect(totals(section)).toEqual({ 'Total so far': '$135.95', 'Projected total': '$199.18' });
  });

  it('shows the compute credits inside the group that has the compute', async () => {
    // Every project paused: a read replica is the only compute of the cycle so far.
    const subscription = recordedBilling.subscription.acmePro;
    const upcomingInvoice = {
      ...recordedBilling.upcomingInvoice.acmePro,
      ...computeUpcomingInvoice({
        planId: 'pro',
        usageBillingEnabled: false,
        period: { start: subscription.current_period_start, end: subscription.current_period_end },
        asOf: subscription.current_period_start + 15 * 86_400,
        projects: [{ ref: 'acmepro2', name: 'Acme Pro Project 2' }],
        compute: [
          {
            projectRef: 'acmepro2',
            kind: 'read_replica',
            metric: 'COMPUTE_HOURS_SM',
            hours: 360,
            running: true,
          },
        ],
        addons: [],
        usage: {},
      }),
    };
    const { section, user } = renderBreakdown(recorded.organization.acmePro, {
      subscription,
      upcomingInvoice,
    });
    expect(within(section).queryByRole('button', { name: 'Compute' })).toBeNull();
    // 360 h × $0.0206 = $7.42, all of it covered.
    expect(rowAmount(section, 'Read replica compute')).toBe('$0.00');
    await user.click(within(section).getByRole('button', { name: 'Read replica compute' }));
    expect(within(section).getByRole('row', { name: /Compute Credits/ })).toHaveTextContent(
      '-$7.42',
    );
    // Running to the end of the 30-day cycle: 720 h × $0.0206 = $14.83, $10.00 of it covered.
    // acme-pro's $50.00 of credit covers all of it.
    expect(totals(section)).toEqual({
      'Total so far': '$25.00',
      'Projected total': '$29.83',
      'Credit applied': '-$29.83',
      'Expected charge': '$0.00',
    });
  });

  it('opens how the projection is made by keyboard, rows adding up to both totals', async () => {
    const invoice = recordedBilling.upcomingInvoice.paygCo;
    const { section, user } = renderBreakdown(recordedBilling.organization.paygCo, {
      subscription: recordedBilling.subscription.paygCo,
      upcomingInvoice: invoice,
    });
    const toggle = within(section).getByRole('button', { name: 'How is this projected?' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(
      within(section).queryByRole('region', { name: 'How the projected total is made' }),
    ).toBeNull();
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = within(section).getByRole('region', {
      name: 'How the projected total is made',
    });
    expect(details).toHaveTextContent(
      `for the ${invoice.projection.remaining_hours} whole hours left in the cycle`,
    );
    // The projection starts at the coming hour: no time not yet reached is named.
    expect(details).toHaveTextContent('Projected from now:');
    const cents = (text: string | null | undefined) =>
      Math.round(Number((text ?? '').replace(/[$,]/g, '')) * 100);
    const rows = within(details)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cents(cell.textContent)),
      );
    const body = rows.slice(0, -1);
    const [totalSoFar, totalProjected] = rows.at(-1) ?? [];
    expect(body.reduce((sum, [soFar = 0]) => sum + soFar, 0)).toBe(totalSoFar);
    expect(body.reduce((sum, [, projected = 0]) => sum + projected, 0)).toBe(totalProjected);
    expect(totalSoFar).toBe(invoice.amount_total);
    expect(totalProjected).toBe(invoice.amount_projected);
    // The compute row says what keeps running; egress grows at its daily rate.
    expect(within(details).getByRole('rowheader', { name: /^Compute/ })).toHaveTextContent(
      "2 resources running at today's size",
    );
    expect(within(details).getByRole('rowheader', { name: /^Egress/ })).toHaveTextContent(
      /GB so far \+ [\d.,]+ GB a day for [\d.]+ days = [\d.,]+ GB/,
    );
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows the days left of the cycle with the spec’s hint', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const subscription = recordedBilling.subscription.acmePro;
    // 12 days and an hour into a 30-day cycle: 18 days are left (a started day counts).
    vi.setSystemTime((subscription.current_period_start + 12 * 86_400 + 3600) * 1000);
    const { section } = renderBreakdown(recorded.organization.acmePro, {
      subscription,
      upcomingInvoice: recordedBilling.upcomingInvoice.acmePro,
    });
    const bar = within(section).getByRole('progressbar', { name: 'Billing cycle' });
    expect(bar).toHaveAttribute('aria-valuetext', '18 days left of 30 days');
    expect(within(section).getByText('18 days left of 30 days')).toBeInTheDocument();
    expect(within(section).getByText('Nov 09, 2026 – Dec 09, 2026')).toBeInTheDocument();
    expect(
      within(section).getByText('Add-on changes or new projects may take up to an hour to appear.'),
    ).toBeInTheDocument();
    expect(
      within(section).getByText(
        'Additional compute projects start at $10/month and the first project is covered by Compute Credits.',
      ),
    ).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'View usage' })).toHaveAttribute(
      'href',
      '/org/acme-pro/usage',
    );
  });

  it('has no cycle bar for an organization of the cloud-provider marketplace', () => {
    const { section } = renderBreakdown(recorded.organization.awsCo, {
      subscription: recordedBilling.subscription.awsCo,
      upcomingInvoice: recordedBilling.upcomingInvoice.paygCo,
    });
    expect(within(section).queryByRole('progressbar', { name: 'Billing cycle' })).toBeNull();
    expect(within(section).queryByText(/may take up to an hour/)).toBeNull();
  });

  it('says when the upcoming invoice or the subscription could not be retrieved', async () => {
    // Nothing recorded: jsdom has no server, so both requests fail as a network error would.
    const { section } = renderBreakdown(recorded.organization.acmePro);
    expect(within(section).getByText('Loading upcoming invoice')).toBeInTheDocument();
    expect(await within(section).findByText('Failed to retrieve upcoming invoice')).toBeVisible();
    expect(await within(section).findByText('Failed to retrieve subscription')).toBeVisible();
  });
});
