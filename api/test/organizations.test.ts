import { organizationSchema, projectSchema } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

describe.each(testDatabases())('organizations and projects (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  it('returns every field of the Organization entity', async () => {
    const response = await owner.get('/platform/organizations/acme-pro');
    const org = organizationSchema.parse(response.body);
    expect(org).toMatchObject({
      slug: 'acme-pro',
      name: 'Acme Pro',
      managed_by: 'platform',
      plan: { id: 'pro', name: 'Pro' },
      restriction_status: null,
      additional_billing_emails: ['finance@acme.example.com', 'cto@acme.example.com'],
    });
  });

  it('carries the partner state of the seeded organizations', async () => {
    const vercel = organizationSchema.parse(
      (await owner.get('/platform/organizations/vercel_icfg_demo123')).body,
    );
    expect(vercel).toMatchObject({
      managed_by: 'vercel-marketplace',
      partner_id: 'icfg_demo123',
      billing_via_partner: true,
      billing_partner: 'vercel_marketplace',
    });
    const aws = organizationSchema.parse((await owner.get('/platform/organizations/aws-co')).body);
    expect(aws).toMatchObject({ managed_by: 'aws-marketplace', billing_partner: 'aws' });
    const fly = organizationSchema.parse((await owner.get('/platform/organizations/fly-co')).body);
    expect(fly).toMatchObject({
      managed_by: 'platform',
      billing_partner: 'fly',
      billing_via_partner: true,
    });
  });

  it('carries restriction state and data', async () => {
    const grace = organizationSchema.parse(
      (await owner.get('/platform/organizations/grace-co')).body,
    );
    expect(grace.restriction_status).toBe('grace_period');
    expect(grace.restriction_data?.violations).toEqual(['exceed_egress_quota']);
    const fiveDays = Date.now() / 1000 + 5 * 86400;
    expect(Math.abs((grace.restriction_data?.grace_period_end ?? 0) - fiveDays)).toBeLessThan(600);
    const fairUse = organizationSchema.parse(
      (await owner.get('/platform/organizations/fairuse-co')).body,
    );
    expect(fairUse.restriction_data?.violations).toEqual([
      'exceed_egress_quota',
      'exceed_storage_size_quota',
    ]);
    const oriole = organizationSchema.parse(
      (await owner.get('/platform/organizations/oriole-co')).body,
    );
    expect(oriole.has_oriole_project).toBe(true);
  });

  it("lists the organization's projects with refs, names, statuses and sizes", async () => {
    const response = await owner.get<unknown[]>('/platform/organizations/acme-pro/projects');
    const projects = response.body.map((project) => projectSchema.parse(project));
    expect(projects.map((project) => [project.ref, project.name, project.status])).toEqual([
      ['acmepro1', 'Acme Pro Project 1', 'ACTIVE_HEALTHY'],
      ['acmepro2', 'Acme Pro Project 2', 'ACTIVE_HEALTHY'],
      ['acmepro3', 'Acme Pro Project 3', 'ACTIVE_HEALTHY'],
    ]);
    expect(new Set(projects.map((project) => project.compute_size)).size).toBe(3);
    const idle = await owner.get<{ status: string }[]>('/platform/organizations/idle-co/projects');
    expect(idle.body.map((project) => project.status)).toEqual(['INACTIVE', 'INACTIVE']);
    const team = await owner.get<unknown[]>('/platform/organizations/acme-team/projects');
    expect(team.body).toHaveLength(4);
  });

  it('lists my organizations', async () => {
    const response = await owner.get<{ slug: string }[]>('/platform/organizations');
    const slugs = response.body.map((org) => org.slug);
    expect(slugs).toContain('acme-pro');
    expect(slugs).toContain('vercel_icfg_demo123');
    expect(slugs).not.toContain('outsider-org');
    expect(slugs).not.toContain('maya-personal');
  });

  it('gives partner links only for the partner-managed organizations', async () => {
    const vercel = await owner.get<{ url: string }>(
      '/platform/integrations/vercel/installations/icfg_demo123/link',
    );
    expect(vercel.status).toBe(200);
    expect(vercel.body.url).toBe('/partners/vercel/installations/icfg_demo123');
    const aws = await owner.get<{ url: string }>(
      '/platform/organizations/aws-co/cloud-marketplace/link',
    );
    expect(aws.body.url).toBe('/partners/aws-marketplace/aws-co');
    expect(
      (await owner.get('/platform/organizations/acme-pro/cloud-marketplace/link')).status,
    ).toBe(404);
    const outsider = await server.signIn('outsider@example.com');
    expect(
      (await outsider.get('/platform/integrations/vercel/installations/icfg_demo123/link')).status,
    ).toBe(404);
  });

  it('serves the OpenAPI document and its reference page', async () => {
    const doc = await server
      .client()
      .get<{ paths: Record<string, unknown> }>('/platform/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/platform/auth/sign-in',
        '/platform/profile',
        '/platform/organizations/{slug}',
        '/platform/projects/{ref}',
      ]),
    );
    const page = await fetch(`${server.url}/platform/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });

  it('answers unknown API paths with JSON 404', async () => {
    const response = await owner.get('/platform/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No route for GET /platform/nothing-here' });
  });
});
