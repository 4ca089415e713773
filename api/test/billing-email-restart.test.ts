import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { testDatabases } from './support/server.ts';

// Issue 15's acceptance: billing mail reaches a real SMTP server once each, also when the server is
// stopped and started again between the outbox write and the delivery.

const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;

describe.each(testDatabases())('billing mail across a restart (%s)', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meterline-mail-restart-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const databaseUrl = database === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  const start = (env: Record<string, string>): Promise<RunningServer> =>
    startServer({
      config: configFrom({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WEB_DIST: '/nonexistent',
        BILLING_JOB_INTERVAL_SECONDS: '0',
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...env,
      }),
      ...(databaseUrl ? { schema } : {}),
    });

  it('closing acme-pro writes its mail; a server started after a stop delivers each message once', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          for (const rcpt of session.envelope.rcptTo) received.push(rcpt.address);
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    try {
      // First run: the outbox worker is off; the cycle closes and the mail is only written.
      const first = await start({ EMAIL_OUTBOX_INTERVAL_SECONDS: '0', SMTP_URL: smtpUrl });
      const db = first.database.db;
      const org = await db
        .selectFrom('subscriptions')
        .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id')
        .select(['organizations.id', 'subscriptions.current_period_end'])
        .where('organizations.slug', '=', 'acme-pro')
        .executeTakeFirstOrThrow();
      const at = new Date(org.current_period_end.getTime() + GRACE);
      const report = await runBillingJobs(
        { db, gateway: first.gateway, clock: { now: () => new Date() } },
        at,
        org.id,
      );
      expect(report.closed).toHaveLength(1);
      const written = await db
        .selectFrom('email_outbox')
        .select(['recipient', 'event'])
        .where('delivered_at', 'is', null)
        .execute();
      expect(written.filter((row) => row.event === 'invoice.finalized')).toHaveLength(3);
      await first.close();
      expect(received).toEqual([]);

      // Second run on the same store, the worker on: every message arrives, once.
      const second = await start({
        EMAIL_OUTBOX_INTERVAL_SECONDS: '1',
        SMTP_URL: smtpUrl,
        SEED_DEMO: 'never',
      });
      try {
        const deadline = Date.now() + 20_000;
        while (received.length < written.length && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // A few more passes of the worker: nothing is sent again.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect(received.sort()).toEqual(written.map((row) => row.recipient).sort());
        const waiting = await second.database.db
          .selectFrom('email_outbox')
          .select('id')
          .where('delivered_at', 'is', null)
          .execute();
        expect(waiting).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
