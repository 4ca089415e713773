import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { cardFingerprint } from '../src/adapters/simulator/cards.ts';
import { PaymentSimulator } from '../src/adapters/simulator/simulator.ts';
import { CARDS, addCard, card, paymentMethod } from './support/payments.ts';
import { testDatabases, useSignedInServer } from './support/server.ts';

const EVERY_TEST_CARD = [
  '4242424242424242',
  '5555555555554444',
  '4000000000000002',
  '4000000000009995',
  '4000000000000069',
  '4000002500003155',
  '4000002760003184',
];

/** The tables of the database (its schema on a server) whose rows mention any of the numbers. */
async function tablesHolding(db: Db, numbers: string[]): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  const pattern = numbers.join('|');
  const holding: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM ${sql.table(name)} AS t WHERE t::text ~ ${pattern}) AS found`.execute(
      db,
    );
    if (rows[0]?.found) holding.push(name);
  }
  return holding;
}

describe.each(testDatabases())('the simulator keeps no card number (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  it('keeps last 4, brand, expiry, fingerprint and behaviour of a tokenized or saved card, never its number', async () => {
    const tokenized = await paymentMethod(as('owner'), CARDS.declined);
    await addCard(as('owner'), 'acme-pro', CARDS.authenticate);
    await addCard(as('owner'), 'acme-pro', CARDS.visa);
    const db = server().database.db;
    const kept = await db
      .selectFrom('simulator_payment_methods')
      .selectAll()
      .where('id', '=', tokenized)
      .executeTakeFirstOrThrow();
    const pepper = await db
      .selectFrom('app_meta')
      .select('value')
      .where('key', '=', 'simulator_card_pepper')
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({
      brand: 'visa',
      last4: '0002',
      behaviour: 'decline',
      exp_month: card(CARDS.declined).exp_month,
      exp_year: card(CARDS.declined).exp_year,
      fingerprint: cardFingerprint(pepper.value, CARDS.declined),
    });
    // The same number twice is recognisably the same card.
    const again = await paymentMethod(as('admin'), CARDS.declined);
    const twin = await db
      .selectFrom('simulator_payment_methods')
      .select('fingerprint')
      .where('id', '=', again)
      .executeTakeFirstOrThrow();
    expect(twin.fingerprint).toBe(kept.fingerprint);
    // Not in the simulator's tables, nor anywhere else: the demo world's cards included. (The search does
    // find what is there.)
    expect(await tablesHolding(db, ['owner@example\\.com'])).toContain('users');
    expect(await tablesHolding(db, EVERY_TEST_CARD)).toEqual([]);
  });
});

describe.each(testDatabases())('migration 0010 converts the stored cards (%s)', (database) => {
  let handle: DatabaseHandle;
  const databaseUrl = database === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl, schema });
  });
  afterAll(async () => {
    await handle.close();
    if (databaseUrl && schema) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('computes each card’s behaviour, last 4 and fingerprint from its number, then forgets the number', async () => {
    const db = handle.db;
    const before = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await before.migrateTo('0007-usage-events-log');
    expect(error).toBeUndefined();
    const exp = card(CARDS.visa);
    const stored = EVERY_TEST_CARD.map((number, index) => ({
      id: `pm_sim_before_${index}`,
      number,
      customer: index % 2 === 0 ? null : 'an-organization',
    }));
    for (const row of stored) {
      await sql`INSERT INTO simulator_payment_methods
        (id, card_number, brand, exp_month, exp_year, customer)
        VALUES (${row.id}, ${row.number}, ${row.number.startsWith('5') ? 'mastercard' : 'visa'},
          ${exp.exp_month}, ${exp.exp_year}, ${row.customer})`.execute(db);
    }

    await migrateToLatest(db, schema);

    const pepper = await db
      .selectFrom('app_meta')
      .select('value')
      .where('key', '=', 'simulator_card_pepper')
      .executeTakeFirstOrThrow();
    const cards = await db
      .selectFrom('simulator_payment_methods')
      .selectAll()
      .orderBy('id')
      .execute();
    expect(
      cards.map(({ id, last4, behaviour, customer, brand, fingerprint }) => ({
        id,
        last4,
        behaviour,
        customer,
        brand,
        fingerprint,
      })),
    ).toEqual(
      stored.map((row) => ({
        id: row.id,
        last4: row.number.slice(-4),
        behaviour:
          {
            '4000000000000002': 'decline',
            '4000000000009995': 'insufficient_funds',
            '4000000000000069': 'expired',
            '4000002500003155': 'authenticate',
          }[row.number] ?? 'succeed',
        customer: row.customer,
        brand: row.number.startsWith('5') ? 'mastercard' : 'visa',
        fingerprint: cardFingerprint(pepper.value, row.number),
      })),
    );
    expect(await tablesHolding(db, EVERY_TEST_CARD)).toEqual([]);
    const { rows: columns } = await sql<{ name: string }>`
      SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'simulator_payment_methods'`.execute(
      db,
    );
    expect(columns.map((column) => column.name)).not.toContain('card_number');

    // The converted cards still do what their numbers did.
    const simulator = new PaymentSimulator(db, () => new Date());
    const charge = (index: number) =>
      simulator.charge({
        amountCents: 100,
        providerPaymentMethodId: `pm_sim_before_${index}`,
        idempotencyKey: `after-0010-${index}`,
        description: 'test',
        offSession: false,
      });
    expect(await charge(0)).toMatchObject({ status: 'succeeded' });
    expect(await charge(1)).toMatchObject({ status: 'succeeded' });
    expect(await charge(2)).toMatchObject({ status: 'failed', message: 'Your card was declined.' });
    expect(await charge(3)).toMatchObject({
      status: 'failed',
      message: 'Your card has insufficient funds.',
    });
    expect(await charge(4)).toMatchObject({ status: 'failed', message: 'Your card has expired.' });
    expect(await charge(5)).toMatchObject({ status: 'requires_action' });
    // A card typed after the migration has the fingerprint its number had before.
    const retyped = await simulator.createCard({
      number: CARDS.declined,
      expMonth: exp.exp_month,
      expYear: exp.exp_year,
      cvc: '123',
    });
    const fingerprints = await db
      .selectFrom('simulator_payment_methods')
      .select('fingerprint')
      .where('id', 'in', [retyped.providerPaymentMethodId, 'pm_sim_before_2'])
      .execute();
    expect(new Set(fingerprints.map((row) => row.fingerprint)).size).toBe(1);
  });
});
