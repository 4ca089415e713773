import { describe, expect, it } from 'vitest';
import { testDatabases, useSignedInServer } from './support/server.ts';

describe.each(testDatabases())('who may see and change what (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  describe('without a session', () => {
    it.each([
      '/platform/profile',
      '/platform/organizations',
      '/platform/organizations/acme-pro',
      '/platform/organizations/acme-pro/projects',
      '/platform/projects/acmepro1',
    ])('GET %s answers 401', async (path) => {
      const response = await server().client().get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'You need to sign in' });
    });

    it('PATCH an organization answers 401 and changes nothing', async () => {
      const response = await server()
        .client()
        .request('PATCH', '/platform/organizations/acme-pro', { billing_email: 'x@evil.test' });
      expect(response.status).toBe(401);
      const org = await as('owner').get<{ billing_email: string }>(
        '/platform/organizations/acme-pro',
      );
      expect(org.body.billing_email).toBe('billing@acme.example.com');
    });
  });

  describe('a mutation without the CSRF token', () => {
    const patch = (user: string | null) =>
      (user ? as(user) : server().client()).request(
        'PATCH',
        '/platform/organizations/acme-pro',
        { billing_email: 'x@evil.test' },
        {},
        { csrf: false },
      );

    it('answers 401 without a session: the caller must sign in, whatever the token', async () => {
      const response = await patch(null);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'You need to sign in' });
    });

    it('answers 404 to a non-member: the organization does not exist for them', async () => {
      const response = await patch('outsider');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Organization not found' });
    });

    it('answers 403 to a member who may make the change, and changes nothing', async () => {
      const response = await patch('owner');
      expect(response.status).toBe(403);
      expect((response.body as { message: string }).message).toMatch(/csrf/i);
      const org = await as('owner').get<{ billing_email: string }>(
        '/platform/organizations/acme-pro',
      );
      expect(org.body.billing_email).toBe('billing@acme.example.com');
    });
  });

  describe('a signed-in user who is not a member', () => {
    it.each([
      '/platform/organizations/acme-pro',
      '/platform/organizations/acme-pro/projects',
      '/platform/organizations/acme-pro/cloud-marketplace/link',
      '/platform/projects/acmepro1',
    ])('GET %s answers 404', async (path) => {
      expect((await as('outsider').get(path)).status).toBe(404);
    });

    it('gets the same 404 for an organization that does not exist at all', async () => {
      const missing = await as('outsider').get('/platform/organizations/no-such-org');
      const hidden = await as('outsider').get('/platform/organizations/acme-pro');
      expect(missing.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    });

    it('cannot change an organization it is not in', async () => {
      const response = await as('outsider').request('PATCH', '/platform/organizations/acme-pro', {
        billing_email: 'x@evil.test',
      });
      expect(response.status).toBe(404);
    });

    it('every other demo user gets 404 on outsider-org', async () => {
      for (const user of ['owner', 'admin', 'developer', 'readonly']) {
        expect((await as(user).get('/platform/organizations/outsider-org')).status).toBe(404);
      }
      expect((await as('outsider').get('/platform/organizations/outsider-org')).status).toBe(200);
    });

    it('lists only its own organizations', async () => {
      const response = await as('outsider').get<{ slug: string }[]>('/platform/organizations');
      expect(response.body.map((org) => org.slug)).toEqual(['outsider-org']);
    });
  });

  describe('members by role', () => {
    it.each(['owner', 'admin', 'developer', 'readonly'])(
      '%s may read the organization',
      async (user) => {
        const response = await as(user).get('/platform/organizations/acme-pro');
        expect(response.status).toBe(200);
      },
    );

    it.each(['developer', 'readonly'])(
      '%s is refused the organization update with 403 naming the permission',
      async (user) => {
        const response = await as(user).request('PATCH', '/platform/organizations/acme-pro', {
          billing_email: 'changed@example.com',
        });
        expect(response.status).toBe(403);
        expect((response.body as { message: string }).message).toContain('update on organizations');
        const org = await as('owner').get<{ billing_email: string }>(
          '/platform/organizations/acme-pro',
        );
        expect(org.body.billing_email).toBe('billing@acme.example.com');
      },
    );

    it.each(['owner', 'admin'])('%s may update the billing emails', async (user) => {
      const email = `${user}-billing@acme.example.com`;
      const response = await as(user).request<{ billing_email: string }>(
        'PATCH',
        '/platform/organizations/acme-team',
        { billing_email: email },
      );
      expect(response.status).toBe(200);
      expect(response.body.billing_email).toBe(email);
    });

    it('checks permission before looking at the input', async () => {
      const response = await as('readonly').request('PATCH', '/platform/organizations/acme-pro', {
        billing_email: 'not an email',
      });
      expect(response.status).toBe(403);
    });

    it('answers 400 naming the bad recipient, and writes nothing', async () => {
      const response = await as('owner').request('PATCH', '/platform/organizations/acme-pro', {
        billing_email: 'new@acme.example.com',
        additional_billing_emails: ['ok@example.com', 'bad'],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: '"bad" is not a valid email address' });
      const org = await as('owner').get<{ billing_email: string }>(
        '/platform/organizations/acme-pro',
      );
      expect(org.body.billing_email).toBe('billing@acme.example.com');
    });
  });

  describe('the profile', () => {
    it("resolves each organization's role and permissions", async () => {
      const response = await as('readonly').get<{
        organizations: { slug: string; role: string; permissions: string[] }[];
      }>('/platform/profile');
      const acmePro = response.body.organizations.find((org) => org.slug === 'acme-pro');
      expect(acmePro?.role).toBe('read_only');
      expect(acmePro?.permissions).toEqual(['billing_read:subscriptions']);
      expect(response.body.organizations.map((org) => org.slug)).not.toContain('outsider-org');
    });
  });

  describe('projects', () => {
    it('answers 402 with a message while the organization is restricted', async () => {
      const response = await as('owner').get<{ message: string }>(
        '/platform/projects/restrictedco1',
      );
      expect(response.status).toBe(402);
      expect(response.body.message).toMatch(/restricted/);
    });

    it('answers 200 for an organization in its grace period', async () => {
      expect((await as('owner').get('/platform/projects/graceco1')).status).toBe(200);
    });

    it('answers 404 to a non-member even for a restricted organization', async () => {
      expect((await as('outsider').get('/platform/projects/restrictedco1')).status).toBe(404);
    });

    it('answers 404 for an unknown project', async () => {
      expect((await as('owner').get('/platform/projects/nosuch1')).status).toBe(404);
    });
  });
});
