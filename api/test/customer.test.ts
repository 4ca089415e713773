import { customerProfileSchema, type CustomerProfile } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { testDatabases, useSignedInServer } from './support/server.ts';

const ACME_PRO = '/platform/organizations/acme-pro/customer';

const DUBLIN = {
  line1: '1 Grand Canal Square',
  line2: 'Grand Canal Harbour',
  city: 'Dublin',
  state: 'Co. Dublin',
  postal_code: 'D02 P820',
  country: 'IE',
};

const BERLIN = {
  line1: 'Unter den Linden 1',
  city: 'Berlin',
  postal_code: '10117',
  country: 'DE',
};

describe.each(testDatabases())('the billing customer (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  async function profile(path = ACME_PRO): Promise<CustomerProfile> {
    const response = await as('owner').get(path);
    expect(response.status).toBe(200);
    return customerProfileSchema.parse(response.body);
  }

  describe('GET /customer', () => {
    it("answers the seeded name, address and the organization's additional recipients", async () => {
      expect(await profile()).toEqual({
        billing_name: 'Acme Pro Inc.',
        address: DUBLIN,
        additional_emails: ['finance@acme.example.com', 'cto@acme.example.com'],
        email: 'billing@acme.example.com',
        balance: 5000,
        billing_via_partner: false,
      });
    });

    it('answers an organization without billing data with nulls', async () => {
      expect(await profile('/platform/organizations/acme-free/customer')).toEqual({
        billing_name: null,
        address: null,
        additional_emails: [],
        email: 'billing@acme-free.example.com',
        balance: 0,
        billing_via_partner: false,
      });
    });

    it('takes the additional recipients from the organization: one source of truth', async () => {
      const emails = ['books@acme.example.com'];
      const update = await as('owner').request('PATCH', '/platform/organizations/acme-enterprise', {
        additional_billing_emails: emails,
      });
      expect(update.status).toBe(200);
      const customer = await profile('/platform/organizations/acme-enterprise/customer');
      expect(customer.additional_emails).toEqual(emails);
    });
  });

  describe('who may read', () => {
    it.each(['owner', 'admin', 'developer'])('%s may read the billing customer', async (user) => {
      const response = await as(user).get(ACME_PRO);
      expect(response.status).toBe(200);
      expect(customerProfileSchema.parse(response.body).billing_name).toBe('Acme Pro Inc.');
    });

    it('refuses readonly with 403 naming billing read on customer', async () => {
      const response = await as('readonly').get(ACME_PRO);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'You do not have permission to do this: it needs billing read on customer',
      });
    });

    it('answers 404 to an outsider, the same as for no organization at all', async () => {
      const hidden = await as('outsider').get(ACME_PRO);
      const missing = await as('outsider').get('/platform/organizations/no-such-org/customer');
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    });

    it('answers 401 without a session', async () => {
      const response = await server().client().get(ACME_PRO);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'You need to sign in' });
    });
  });

  describe('who may write', () => {
    it.each(['owner', 'admin'])('%s may replace the name and address', async (user) => {
      const path = '/platform/organizations/acme-team/customer';
      const body = { billing_name: `Acme Team (${user})`, address: BERLIN };
      const response = await as(user).request('PUT', path, body);
      expect(response.status).toBe(200);
      const expected = {
        ...body,
        additional_emails: [],
        email: 'billing@acme-team.example.com',
        balance: 0,
        billing_via_partner: false,
      };
      expect(response.body).toEqual(expected);
      expect(await profile(path)).toEqual(expected);
    });

    it.each(['PUT', 'PATCH'])(
      'refuses developer and readonly %s with 403 naming billing write on customer',
      async (method) => {
        for (const user of ['developer', 'readonly']) {
          const response = await as(user).request(method, ACME_PRO, {
            billing_name: 'Hijacked Ltd.',
            address: null,
          });
          expect(response.status).toBe(403);
          expect(response.body).toEqual({
            message: 'You do not have permission to do this: it needs billing write on customer',
          });
        }
        expect((await profile()).billing_name).toBe('Acme Pro Inc.');
      },
    );

    it('checks the permission before it looks at the input', async () => {
      const response = await as('developer').request('PUT', ACME_PRO, { billing_name: 'x' });
      expect(response.status).toBe(403);
    });

    it('answers 404 to an outsider and 401 without a session, writing nothing', async () => {
      const body = { billing_name: 'Hijacked Ltd.', address: null };
      expect((await as('outsider').request('PUT', ACME_PRO, body)).status).toBe(404);
      expect((await server().client().request('PUT', ACME_PRO, body)).status).toBe(401);
      expect((await profile()).billing_name).toBe('Acme Pro Inc.');
    });
  });

  describe('validation: 400 with the rule, nothing written', () => {
    const valid = { billing_name: 'Acme Pro Inc.', address: DUBLIN };

    it.each([
      [
        'a two-letter name',
        { ...valid, billing_name: 'ab' },
        'Name must be at least 3 letters long',
      ],
      ['a blank name', { ...valid, billing_name: '   ' }, 'Name must be at least 3 letters long'],
      ['no name', { address: DUBLIN }, 'Name must be at least 3 letters long'],
      [
        'a name too long',
        { ...valid, billing_name: 'x'.repeat(201) },
        'Name must be at most 200 characters',
      ],
      [
        'a short line1',
        { ...valid, address: { ...DUBLIN, line1: ' ab ' } },
        'Address line 1 must be at least 3 characters',
      ],
      [
        'an address without line1',
        { ...valid, address: { ...DUBLIN, line1: undefined } },
        'Address line 1 is required',
      ],
      [
        'a one-letter city',
        { ...valid, address: { ...DUBLIN, city: 'D' } },
        'City must be at least 2 characters',
      ],
      ['no city', { ...valid, address: { ...DUBLIN, city: undefined } }, 'City is required'],
      [
        'a blank postal code',
        { ...valid, address: { ...DUBLIN, postal_code: '  ' } },
        'Postal code is required',
      ],
      [
        'a blank country',
        { ...valid, address: { ...DUBLIN, country: ' ' } },
        'Country is required',
      ],
      [
        'an unknown country',
        { ...valid, address: { ...DUBLIN, country: 'ZZ' } },
        'Country ZZ is not an ISO 3166-1 alpha-2 country code',
      ],
      [
        'a line2 too long',
        { ...valid, address: { ...DUBLIN, line2: 'x'.repeat(201) } },
        'Address line 2 must be at most 200 characters',
      ],
      [
        'an unknown address field',
        { ...valid, address: { ...DUBLIN, zip: '1' } },
        'address: Unrecognized key: "zip"',
      ],
      [
        'an unknown field',
        { ...valid, additional_emails: ['a@b.co'] },
        'body: Unrecognized key: "additional_emails"',
      ],
    ])('refuses %s', async (_case, body, message) => {
      for (const method of ['PUT', 'PATCH']) {
        const response = await as('owner').request(method, ACME_PRO, body);
        expect(response.status, method).toBe(400);
        expect(response.body, method).toEqual({ message });
      }
      expect(await profile()).toMatchObject({ billing_name: 'Acme Pro Inc.', address: DUBLIN });
    });

    it('refuses a body that is not a JSON object', async () => {
      const response = await as('owner').request('PUT', ACME_PRO, ['Acme']);
      expect(response.status).toBe(400);
      expect((await profile()).billing_name).toBe('Acme Pro Inc.');
    });
  });

  describe('what is stored', () => {
    const path = '/platform/organizations/payg-co/customer';
    const PAYG_CUSTOMER = {
      email: 'billing@payg-co.example.com',
      balance: 0,
      billing_via_partner: false,
    };

    it('trims every field, upper-cases the country and leaves empty optional fields out', async () => {
      const response = await as('owner').request('PUT', path, {
        billing_name: '  PAYG Company  ',
        address: { ...BERLIN, line1: ' Unter den Linden 1 ', line2: ' ', state: '', country: 'de' },
      });
      expect(response.status).toBe(200);
      expect(await profile(path)).toEqual({
        billing_name: 'PAYG Company',
        address: BERLIN,
        additional_emails: [],
        ...PAYG_CUSTOMER,
      });
    });

    it.each([
      ['null', null],
      ['{}', {}],
      ['all blank', { line1: '', line2: '', city: '', state: '', postal_code: '', country: '' }],
      ['left out', undefined],
    ])(
      'takes an address sent as %s as no address, clearing the one before',
      async (_case, address) => {
        await as('owner').request('PUT', path, { billing_name: 'PAYG Company', address: BERLIN });
        const response = await as('owner').request('PUT', path, {
          billing_name: 'PAYG Company',
          address,
        });
        expect(response.status).toBe(200);
        expect((await profile(path)).address).toBeNull();
      },
    );

    it('accepts PATCH with the same body and the same result as PUT', async () => {
      const body = { billing_name: 'PAYG Patched', address: { ...DUBLIN, country: 'ie' } };
      const patched = await as('admin').request('PATCH', path, body);
      expect(patched.status).toBe(200);
      const afterPatch = await profile(path);
      await as('owner').request('PUT', path, { billing_name: 'Other', address: null });
      const put = await as('admin').request('PUT', path, body);
      expect(put.body).toEqual(patched.body);
      expect(await profile(path)).toEqual(afterPatch);
      expect(afterPatch).toEqual({
        billing_name: 'PAYG Patched',
        address: DUBLIN,
        additional_emails: [],
        ...PAYG_CUSTOMER,
      });
    });
  });

  it('describes the routes, their bodies and their errors in the OpenAPI document', async () => {
    const response = await server().client().get<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>('/platform/openapi.json');
    const paths = response.body.paths['/platform/organizations/{slug}/customer'];
    expect(Object.keys(paths ?? {}).sort()).toEqual(['get', 'patch', 'put']);
    // 413, 414 and 415 come from the body limit, the router and the content type.
    expect(Object.keys(paths?.put?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '414',
      '415',
    ]);
  });
});
