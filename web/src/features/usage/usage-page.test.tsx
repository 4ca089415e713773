import type { Organization, Project } from '@meterline/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../test/billing-fixtures';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { seedBilling, type BillingSeed } from '../../../test/seed-billing';

function renderUsage(
  organization: Organization,
  projects: Project[],
  seed: BillingSeed,
  path = `/org/${organization.slug}/usage`,
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
    projects: { [organization.slug]: projects },
  });
  seedBilling(queryClient, organization.slug, seed);
  return renderApp(path, queryClient);
}

function metric(name: string): HTMLElement {
  return screen.getByRole('group', { name });
}

const limitsCo = {
  subscription: recordedBilling.subscription.limitsCo,
  usage: recordedBilling.usage.limitsCo,
  dailyUsage: [recordedBilling.dailyUsage.limitsCo],
};

const acmePro = {
  subscription: recordedBilling.subscription.acmePro,
  usage: recordedBilling.usage.acmePro,
  dailyUsage: [recordedBilling.dailyUsage.acmePro, recordedBilling.dailyUsage.acmeProProject1],
};

describe('usage page', () => {
  it('shows each metric against its quota, sizes in GB', () => {
    renderUsage(recordedBilling.organization.limitsCo, recordedBilling.projects.limitsCo, limitsCo);
    expect(screen.getByRole('heading', { level: 1, name: 'Usage' })).toBeInTheDocument();
    // Recorded: 8,604,542,916 bytes of egress against 5e9 included.
    const egress = metric('Egress');
    expect(egress).toHaveTextContent('8.60 GB');
    expect(egress).toHaveTextContent('of 5.00 GB included');
    expect(egress).toHaveTextContent('172%');
    expect(within(egress).getByText('Capped at quota')).toBeInTheDocument();
    expect(
      within(egress).getByRole('progressbar', { name: 'Egress against its quota' }),
    ).toHaveAttribute('aria-valuenow', '100');
    expect(metric('Monthly Active Users')).toHaveTextContent('983of 50,000 included');
  });

  it('says a capped service past its quota is limited, and how to lift it; nothing below 80%', () => {
    renderUsage(recordedBilling.organization.limitsCo, recordedBilling.projects.limitsCo, limitsCo);
    expect(
      within(metric('Egress')).getByText('Egress is limited: 172% of the included quota is used'),
    ).toBeInTheDocument();
    expect(metric('Egress')).toHaveTextContent(
      'Usage past the quota is not billed on the Free plan, so this service is limited until the next billing cycle. Upgrade to raise the quota.',
    );
    expect(
      within(metric('Database Size')).getByText(
        'Database Size is limited: 168% of the included quota is used',
      ),
    ).toBeInTheDocument();
    // 59% of the storage quota: no warning.
    expect(metric('Storage Size')).toHaveTextContent('59%');
    expect(within(metric('Storage Size')).queryByText(/You have used|is limited/)).toBeNull();
  });

  it('warns when usage past the quota is billed too (spend cap off)', () => {
    const organization = recordedBilling.organization.paygCo;
    renderUsage(organization, [], {
      subscription: recordedBilling.subscription.paygCo,
      usage: recordedBilling.usage.paygCo,
      dailyUsage: [],
    });
    // Recorded: 310.24 GB of egress against 250 GB included, billed beyond it.
    const egress = metric('Egress');
    expect(
      within(egress).getByText('You have used 124% of the included Egress'),
    ).toBeInTheDocument();
    expect(egress).toHaveTextContent('Usage beyond the quota is billed at the plan’s rates.');
    expect(egress).toHaveTextContent('Billed beyond the quota so far: $5.42');
    // The badge only where there is usage; sizes say they are the cycle's average.
    expect(within(egress).getByText('Billed beyond quota')).toBeInTheDocument();
    expect(within(metric('Cached Egress')).queryByText('Billed beyond quota')).toBeNull();
    expect(metric('Database Size')).toHaveTextContent('Average over the billing cycle so far');
    expect(egress).not.toHaveTextContent('Average over');
  });

  it('has no warning for acme-pro, well within its quotas', () => {
    renderUsage(recorded.organization.acmePro, recorded.projects.acmePro, acmePro);
    expect(metric('Egress')).toHaveTextContent('60.07 GB');
    expect(screen.queryByText(/You have used/)).toBeNull();
  });

  it('charts the cycle day by day and breaks usage down by project', () => {
    renderUsage(recorded.organization.acmePro, recorded.projects.acmePro, acmePro);
    const egress = metric('Egress');
    const chart = within(egress).getByRole('img', { name: /^Egress: daily usage from/ });
    expect(chart).toHaveAccessibleName('Egress: daily usage from Nov 09, 2026 to Dec 08, 2026');
    // One bar per day of the 30-day cycle.
    expect(chart.querySelectorAll('rect')).toHaveLength(30);
    // The chart's value on focus, and day by day with the arrow keys.
    expect(within(egress).getByText('Daily')).toBeInTheDocument();
    act(() => chart.focus());
    const readout = () =>
      within(egress).getByText(/^[A-Z][a-z]{2} \d{2}, \d{4}: [\d.,<]+ GB$/, { selector: 'span' });
    const focused = readout().textContent;
    fireEvent.keyDown(chart, { key: 'ArrowLeft' });
    expect(readout().textContent).not.toBe(focused);
    fireEvent.keyDown(chart, { key: 'Home' });
    expect(readout()).toHaveTextContent(/^Nov 09, 2026: /);
    act(() => chart.blur());
    expect(within(egress).getByText('Daily')).toBeInTheDocument();
    const byProject = within(egress).getByRole('heading', { name: 'By project' }).parentElement;
    expect(within(byProject as HTMLElement).getAllByRole('listitem')).toHaveLength(3);
  });

  it('shows compute hours with their daily average', () => {
    renderUsage(recorded.organization.acmePro, recorded.projects.acmePro, acmePro);
    const micro = metric('Micro');
    // Recorded: 24 hours of Micro a day for 12 days, then 2 hours on the day of recording: the
    // 290 hours the upcoming invoice bills, over 13 days.
    expect(micro).toHaveTextContent('290.00 hours(avg 22.31 hours)');
    expect(metric('Branching')).toBeInTheDocument();
  });

  it('narrows the charts and the breakdown to one project', async () => {
    const { user, router } = renderUsage(
      recorded.organization.acmePro,
      recorded.projects.acmePro,
      acmePro,
    );
    await user.selectOptions(screen.getByLabelText('Project'), 'acmepro1');
    expect(router.location().search).toBe('?projectRef=acmepro1');
    await waitFor(() =>
      expect(
        within(metric('Egress')).getByRole('heading', { name: 'By project' }).parentElement,
      ).not.toHaveTextContent('Acme Pro Project 2'),
    );
    expect(metric('Egress')).toHaveTextContent('Acme Pro Project 1');
    // Project 1 runs Micro only; the organization's Small and Medium hours are not its own.
    expect(screen.queryByRole('group', { name: 'Medium' })).toBeNull();
    expect(metric('Micro')).toBeInTheDocument();
  });

  it('is also at /organization/{slug}/usage', () => {
    renderUsage(
      recorded.organization.acmePro,
      recorded.projects.acmePro,
      acmePro,
      '/organization/acme-pro/usage',
    );
    expect(metric('Egress')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Organization' });
    expect(within(tabs).getByRole('link', { name: 'Usage' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('says when usage could not be retrieved', async () => {
    renderUsage(recorded.organization.acmePro, recorded.projects.acmePro, {});
    expect(await screen.findByText('Failed to retrieve usage')).toBeInTheDocument();
  });
});
