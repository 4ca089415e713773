import {
  emailOutboxListSchema,
  missingPermissionMessage,
  spendAlertStateSchema,
  type SpendAlertState,
} from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { renderEmail } from '../src/services/notifications/render-email.tsx';
import { testDatabases, useSignedInServer, type TestClient } from './support/server.ts';

// Product decisions §12: the monthly budget, its thresholds and the alerts.

const KEY = 'test-metering-key-0123456789';
const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;
const path = (slug: string) => `/platform/organizations/${slug}/billing/spend-alert`;

describe.each(testDatabases())('spend alerts (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  const { server, as } = useSignedInServer({
    database,
    clock,
    env: { METERING_API_KEY: KEY, EMAIL_OUTBOX_INTERVAL_SECONDS: '0' },
  });

  const state = async (slug: string, client: TestClient = as('owner')) => {
    const response = await client.get(path(slug));
    expect(response.status).toBe(200);
    return spendAlertStateSchema.parse(response.body);
  };
  const put = (slug: string, body: unknown, client: TestClient = as('owner')) =>
    client.request<SpendAlertState & { message: string }>('PUT', path(slug), body);
  const alertMail = async () => {
    const response = await fetch(`${server().url}/internal/emails?limit=500`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(200);
    return emailOutboxListSchema
      .parse(await response.json())
      .emails.filter((email) => email.event === 'spend_alert.triggered');
  };
  const job = () =>
    runBillingJobs({ db: server().database.db, gateway: server().gateway, clock }, clock.now());

  describe('who may read and change the budget', () => {
    it.each(['owner', 'admin'])('%s sets, reads and removes it', async (user) => {
      const set = await put('acme-team', { budget: 1_000_000, thresholds: [80, 20] }, as(user));
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ budget: 1_000_000, thresholds: [20, 80], reached: [] });
      expect((await state('acme-team', as(user))).budget).toBe(1_000_000);
      expect((await as(user).request('DELETE', path('acme-team'))).status).toBe(204);
      expect(await state('acme-team', as(user))).toMatchObject({
        budget: null,
        thresholds: [50, 75, 90, 100],
        reached: [],
      });
    });

    it.each(['developer', 'readonly'])('%s reads it and gets 403 on a change', async (user) => {
      await put('acme-team', { budget: 900_000 });
      expect((await state('acme-team', as(user))).budget).toBe(900_000);
      const changed = await put('acme-team', { budget: 5 }, as(user));
      expect(changed.status).toBe(403);
      expect(changed.body.message).toBe(missingPermissionMessage('billing_write:subscriptions'));
      expect((await as(user).request('DELETE', path('acme-team'))).status).toBe(403);
      expect((await state('acme-team')).budget).toBe(900_000);
      await as('owner').request('DELETE', path('acme-team'));
    });

    it('an outsider gets 404 for each, and no session 401', async () => {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const body = method === 'PUT' ? { budget: 10 } : undefined;
        expect((await as('outsider').request(method, path('acme-team'), body)).status).toBe(404);
        expect((await server().client().request(method, path('acme-team'), body)).status).toBe(401);
      }
      expect((await state('acme-team')).budget).toBeNull();
    });
  });

  describe('validation', () => {
    it.each([
      [{ budget: 0 }, /^budget /],
      [{ budget: 12.5 }, /^budget /],
      [{ budget: '50' }, /^budget /],
      [{ budget: 2_000_000 }, /^budget /],
      [{ budget: 50, thresholds: [] }, /^thresholds /],
      [{ budget: 50, thresholds: [50, 50] }, /^thresholds must not repeat/],
      [{ budget: 50, thresholds: [0, 1001] }, /^thresholds /],
      [{ budget: 50, thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, /^thresholds /],
    ])('%j is a 400 naming the field, and nothing is written', async (body, message) => {
      const response = await put('acme-team', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
      expect((await state('acme-team')).budget).toBeNull();
    });
  });

  describe('payg-co with a $50 budget', () => {
    it('alerts at once for the thresholds its spend has passed: one email per recipient, for the highest', async () => {
      const before = await state('payg-co');
      // The demo world's payg-co has spent more than $50 this cycle (plan fee and overage).
      expect(before.spend).toBeGreaterThanOrEqual(5_000);
      expect(before.budget).toBeNull();

      // A budget far above the spend sends nothing.
      expect((await put('payg-co', { budget: 1_000_000 })).body.alerts).toEqual([]);
      expect(await alertMail()).toEqual([]);

      // Lowered below today's spend: the thresholds already passed alert in the same request.
      const lowered = await put('payg-co', { budget: 50 });
      expect(lowered.status).toBe(200);
      expect(lowered.body.reached).toEqual([50, 75, 90, 100]);
      expect(lowered.body.alerts.map((alert) => alert.alert)).toEqual([50, 75, 90, 100]);
      expect(lowered.body.alerts.every((alert) => alert.budget === 50)).toBe(true);

      const mail = await alertMail();
      const recipients = new Set(mail.map((email) => email.to));
      expect(recipients.size).toBeGreaterThan(0);
      // One message, not four: the highest threshold, with the percentage really spent.
      expect(mail).toHaveLength(recipients.size);
      const percent = Math.floor(lowered.body.spend / 50);
      expect(percent).toBeGreaterThan(100);
      const subject = `PAYG Co: You have used ${percent}% of your $50 monthly budget`;
      expect(mail.every((email) => email.subject === subject)).toBe(true);
    });

    it('the message names the threshold, the budget and the figures, with a link to the billing page', async () => {
      const row = await server()
        .database.db.selectFrom('email_outbox')
        .select('payload')
        .where('event', '=', 'spend_alert.triggered')
        .where('event_key', 'like', '%:100')
        .executeTakeFirstOrThrow();
      const { spend, projected } = await state('payg-co');
      const message = await renderEmail(row.payload, {
        baseUrl: 'http://app.test',
        payLinkSecret: 'test',
      });
      const percent = Math.floor(spend / 50);
      expect(message.subject).toBe(`PAYG Co: You have used ${percent}% of your $50 monthly budget`);
      const dollars = (cents: number) =>
        `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
      for (const text of [message.text, message.html]) {
        expect(text).toContain(
          `PAYG Co has spent ${dollars(spend)} so far this billing cycle, ${percent}% of its $50.00 monthly budget, reaching its 100% threshold.`,
        );
        expect(text).toContain(dollars(spend));
        expect(text).toContain(dollars(projected));
        expect(text).toContain('http://app.test/org/payg-co/billing');
      }
    });

    const ingestEgress = async (id: string, gigabytes: number) => {
      const response = await fetch(`${server().url}/internal/usage-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({
          events: [
            {
              id,
              project_ref: 'paygco1',
              metric: 'EGRESS',
              usage: gigabytes * 1e9,
              timestamp: Math.floor(clock.now().getTime() / 1000) - 60,
            },
          ],
        }),
      });
      expect(response.status).toBe(200);
    };
    let added = 0;

    it('the job and ingestion send nothing new for the same cycle', async () => {
      const sent = (await alertMail()).length;
      const report = await job();
      expect(report.spendAlerted).toEqual([]);
      expect(report.errors).toEqual([]);
      await ingestEgress('spend-alert-egress-1', 50);
      expect(await alertMail()).toHaveLength(sent);
    });

    it('ingestion sends a threshold its usage crosses, once', async () => {
      const recipients = new Set((await alertMail()).map((email) => email.to)).size;
      const { spend } = await state('payg-co');
      // The first percentage of $50 above the spend so far: at most 50 cents away.
      added = Math.floor(spend / 50) + 1;
      const changed = await put('payg-co', { budget: 50, thresholds: [50, 75, 90, 100, added] });
      expect(changed.body.reached).toEqual([50, 75, 90, 100]);
      expect(await alertMail()).toHaveLength(recipients);

      await ingestEgress('spend-alert-egress-2', 100);
      const after = await state('payg-co');
      expect(after.spend).toBeGreaterThanOrEqual(50 * added);
      expect(after.alerts.map((alert) => alert.alert)).toEqual([50, 75, 90, 100, added]);
      expect(after.alerts.at(-1)?.spend).toBe(after.spend);
      const mail = await alertMail();
      expect(mail).toHaveLength(2 * recipients);
      expect(mail[0]?.subject).toBe(
        `PAYG Co: You have used ${Math.floor(after.spend / 50)}% of your $50 monthly budget`,
      );

      expect((await job()).spendAlerted).toEqual([]);
      await ingestEgress('spend-alert-egress-3', 1);
      expect(await alertMail()).toHaveLength(2 * recipients);
    });

    it('a new cycle starts clean', async () => {
      const db = server().database.db;
      const id = await server().organizationId('payg-co');
      const old = await state('payg-co');
      await put('payg-co', { budget: 50 });
      clock.set(new Date(old.cycle_end * 1000 + GRACE + 60_000));
      const report = await job();
      expect(report.errors).toEqual([]);
      // A month on, the session has lapsed: sign in again.
      const owner = await server().signIn('owner@example.com');
      const fresh = await state('payg-co', owner);
      expect(fresh.cycle_start).toBe(old.cycle_end);
      // The job checked the new cycle at this very moment: it sent exactly what the new cycle reaches,
      // nothing kept from the old one standing in the way.
      const expected = [...(fresh.projected_to_exceed ? ['projected'] : []), ...fresh.reached];
      expect(fresh.alerts.map((alert) => alert.alert)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      for (const alert of fresh.alerts) expect(alert.at).toBeGreaterThanOrEqual(fresh.cycle_start);
      const rows = await db
        .selectFrom('spend_alerts_sent')
        .select(['cycle_start', 'alert'])
        .where('organization_id', '=', id)
        .execute();
      const oldCycle = rows.filter((row) => row.cycle_start.getTime() === old.cycle_start * 1000);
      expect(oldCycle.map((row) => Number(row.alert)).sort((a, b) => a - b)).toEqual([
        50,
        75,
        90,
        100,
        added,
      ]);
      // Every threshold sent in the new cycle is written again, keyed by the new cycle's start.
      const newCycle = rows.filter((row) => row.cycle_start.getTime() === fresh.cycle_start * 1000);
      expect(newCycle.map((row) => row.alert).sort()).toEqual(
        fresh.alerts.map((alert) => String(alert.alert)).sort(),
      );
      const recipients = new Set((await alertMail()).map((email) => email.to)).size;
      // The new cycle's check: one message, however many alerts it recorded.
      expect(await alertMail()).toHaveLength(3 * recipients);
    });
  });
});
