import {
  DOWNGRADE_REASON_REQUIRED,
  surveyResponseSchema,
  UPGRADE_REASON_REQUIRED,
} from '@meterline/domain';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDay, surveysCsv } from '../src/services/surveys/export-surveys.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';
import { runCli as runCommand } from './support/cli.ts';

/** Runs the operator CLI; resolves with its exit code and output. */
const runCli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCommand('billing', args, env);

const downgrade = {
  orgSlug: 'acme-pro',
  reasons: '- It is too expensive\n- A feature I need is missing',
  additionalFeedback: '  =HYPERLINK("x") we will be back  ',
  exitAction: 'downgrade',
};
const upgrade = {
  orgSlug: 'acme-free',
  prevPlan: 'free',
  currentPlan: 'pro',
  reasons: ['Need more compute', 'I want better support'],
};

describe.each(testDatabases())('surveys (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());
  const db = () => server.database.db;

  it('stores an exit survey answer (201) with its parsed reasons and trimmed feedback', async () => {
    const response = await owner.post('/platform/feedback/downgrade', downgrade);
    expect(response.status).toBe(201);
    const { id } = surveyResponseSchema.parse(response.body);
    const row = await db()
      .selectFrom('survey_responses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'downgrade',
      organization_slug: 'acme-pro',
      exit_action: 'downgrade',
      reasons: ['It is too expensive', 'A feature I need is missing'],
      additional_feedback: '=HYPERLINK("x") we will be back',
    });
    expect(row.user_id).not.toBeNull();
    expect(row.organization_id).not.toBeNull();
  });

  it('stores an upgrade survey answer (201)', async () => {
    const response = await owner.post('/platform/feedback/upgrade', {
      ...upgrade,
      additionalFeedback: '   ',
    });
    expect(response.status).toBe(201);
    const { id } = surveyResponseSchema.parse(response.body);
    const row = await db()
      .selectFrom('survey_responses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'upgrade',
      organization_slug: 'acme-free',
      prev_plan: 'free',
      current_plan: 'pro',
      reasons: upgrade.reasons,
      additional_feedback: null,
    });
  });

  it("takes a project's organization, and an exit survey without organization", async () => {
    const project = await owner.post('/platform/feedback/downgrade', {
      projectRef: 'acmeteam1',
      reasons: '- My project was cancelled',
      exitAction: 'delete',
    });
    expect(project.status).toBe(201);
    const none = await owner.post('/platform/feedback/downgrade', {
      reasons: 'It was hard to use',
      message: 'from a client that says message',
      exitAction: 'downgrade',
    });
    expect(none.status).toBe(201);
    const rows = await db()
      .selectFrom('survey_responses')
      .select(['organization_slug', 'project_ref', 'additional_feedback', 'reasons'])
      .where('id', 'in', [
        surveyResponseSchema.parse(project.body).id,
        surveyResponseSchema.parse(none.body).id,
      ])
      .orderBy('created_at')
      .orderBy('project_ref')
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          organization_slug: 'acme-team',
          project_ref: 'acmeteam1',
          additional_feedback: null,
          reasons: ['My project was cancelled'],
        },
        {
          organization_slug: null,
          project_ref: null,
          additional_feedback: 'from a client that says message',
          reasons: ['It was hard to use'],
        },
      ]),
    );
  });

  it('refuses an answer without a reason with the spec words, and stores nothing', async () => {
    const before = await db()
      .selectFrom('survey_responses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const reasons of ['', '- \n-', undefined]) {
      const response = await owner.post('/platform/feedback/downgrade', { ...downgrade, reasons });
      expect(response).toMatchObject({
        status: 400,
        body: { message: DOWNGRADE_REASON_REQUIRED },
      });
    }
    for (const reasons of [[], undefined]) {
      const response = await owner.post('/platform/feedback/upgrade', { ...upgrade, reasons });
      expect(response).toMatchObject({ status: 400, body: { message: UPGRADE_REASON_REQUIRED } });
    }
    const after = await db()
      .selectFrom('survey_responses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses what is out of bounds with a 400, never a 5xx', async () => {
    const bad: [string, unknown][] = [
      ['/platform/feedback/downgrade', { ...downgrade, additionalFeedback: 'x'.repeat(5001) }],
      ['/platform/feedback/downgrade', { ...downgrade, reasons: 'x'.repeat(4001) }],
      ['/platform/feedback/downgrade', { ...downgrade, reasons: 'nul\u0000' }],
      ['/platform/feedback/downgrade', { ...downgrade, exitAction: 'vanish' }],
      ['/platform/feedback/downgrade', { ...downgrade, orgSlug: 'Not A Slug' }],
      ['/platform/feedback/downgrade', { ...downgrade, projectRef: 'x'.repeat(41) }],
      ['/platform/feedback/upgrade', { ...upgrade, reasons: ['x'.repeat(201)] }],
      ['/platform/feedback/upgrade', { ...upgrade, reasons: Array(21).fill('x') }],
      ['/platform/feedback/upgrade', { ...upgrade, prevPlan: 'platinum' }],
      ['/platform/feedback/upgrade', { ...upgrade, orgSlug: undefined }],
      ['/platform/feedback/upgrade', { ...upgrade, extra: true }],
      ['/platform/feedback/upgrade', ['not', 'an', 'object']],
    ];
    for (const [path, body] of bad) {
      const response = await owner.post(path, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it("answers 404 for an organization or project that is not the caller's, 401 without a session", async () => {
    const outsider = await server.signIn('outsider@example.com');
    expect((await outsider.post('/platform/feedback/downgrade', downgrade)).status).toBe(404);
    expect((await outsider.post('/platform/feedback/upgrade', upgrade)).status).toBe(404);
    expect(
      (
        await outsider.post('/platform/feedback/downgrade', {
          ...downgrade,
          orgSlug: undefined,
          projectRef: 'acmepro1',
        })
      ).status,
    ).toBe(404);
    // A project of another of the caller's organizations than the one named.
    expect(
      (await owner.post('/platform/feedback/downgrade', { ...downgrade, projectRef: 'acmeteam1' }))
        .status,
    ).toBe(404);
    expect(
      (await owner.post('/platform/feedback/upgrade', { ...upgrade, orgSlug: 'no-such-org' }))
        .status,
    ).toBe(404);
    const anonymous = server.client();
    expect((await anonymous.post('/platform/feedback/upgrade', upgrade)).status).toBe(401);
  });

  it('exports the answers since a day as CSV, spreadsheet formulas neutralized', async () => {
    const csv = await surveysCsv(db(), new Date(Date.now() - 86_400_000));
    const [header, ...records] = parse(csv) as string[][];
    expect(header).toEqual([
      'id',
      'kind',
      'created_at',
      'user_email',
      'organization_slug',
      'project_ref',
      'exit_action',
      'prev_plan',
      'current_plan',
      'reasons',
      'additional_feedback',
    ]);
    const exit = records.find((record) => record[4] === 'acme-pro');
    expect(exit?.slice(1, 2)).toEqual(['downgrade']);
    expect(exit?.[3]).toBe('owner@example.com');
    expect(exit?.[9]).toBe('It is too expensive; A feature I need is missing');
    expect(exit?.[10]).toBe('\'=HYPERLINK("x") we will be back');
    const up = records.find((record) => record[1] === 'upgrade');
    expect(up?.slice(7, 10)).toEqual(['free', 'pro', 'Need more compute; I want better support']);
    const tomorrow = await surveysCsv(db(), new Date(Date.now() + 86_400_000));
    expect(parse(tomorrow)).toHaveLength(1);
  });

  it('refuses a --since that is not a day, before opening the store', async () => {
    expect(parseDay('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    for (const bad of ['2026-02-30', '01/03/2026', '2026-3-1', 'yesterday', '']) {
      expect(parseDay(bad)).toBeNull();
    }
    const run = await runCli(['surveys', '--since', '2026-02-30'], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--since: "2026-02-30" is not a day');
    const missing = await runCli(['surveys'], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('surveys needs --since');
  });

  it.runIf(database === 'postgres')('prints the CSV from the command line', async () => {
    const run = await runCli(['surveys', '--since', new Date().toISOString().slice(0, 10)], {
      DATABASE_URL: server.databaseUrl,
      DATABASE_SCHEMA: server.schema,
    });
    expect(run.code).toBe(0);
    const [header, ...records] = parse(run.stdout) as string[][];
    expect(header?.[0]).toBe('id');
    expect(records.length).toBeGreaterThanOrEqual(4);
  });
});
