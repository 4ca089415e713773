import { taxIdResponseSchema, type TaxId } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { testDatabases, useSignedInServer } from './support/server.ts';

const ACME_PRO = '/platform/organizations/acme-pro/tax-ids';
const SEEDED: TaxId = { type: 'eu_vat', value: 'IE9826471FA', country: 'IE' };

describe.each(testDatabases())('the tax ID (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  async function taxIdOf(path = ACME_PRO): Promise<TaxId | null> {
    const response = await as('owner').get(path);
    expect(response.status).toBe(200);
    return taxIdResponseSchema.parse(response.body).tax_id;
  }

  describe('GET /tax-ids', () => {
    it("answers acme-pro's Irish VAT number, prefix included", async () => {
      expect(await taxIdOf()).toEqual(SEEDED);
    });

    it('answers null for an organization without one', async () => {
      expect(await taxIdOf('/platform/organizations/acme-free/tax-ids')).toBeNull();
    });
  });

  describe('who may read', () => {
    it.each(['owner', 'admin', 'developer'])('%s may read the tax ID', async (user) => {
      const response = await as(user).get(ACME_PRO);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ tax_id: SEEDED });
    });

    it('refuses readonly with 403 naming billing read on tax ids', async () => {
      const response = await as('readonly').get(ACME_PRO);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'You do not have permission to do this: it needs billing read on tax ids',
      });
    });

    it('answers 404 to an outsider and 401 without a session', async () => {
      expect((await as('outsider').get(ACME_PRO)).status).toBe(404);
      expect((await server().client().get(ACME_PRO)).status).toBe(401);
    });
  });

  describe('who may write', () => {
    const body = { type: 'us_ein', value: '12-3456789', country: 'US' };

    it.each(['owner', 'admin'])('%s may set and clear the tax ID', async (user) => {
      const path = '/platform/organizations/acme-team/tax-ids';
      const set = await as(user).request('PUT', path, body);
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ tax_id: body });
      expect(await taxIdOf(path)).toEqual(body);
      const cleared = await as(user).request('DELETE', path, undefined, { version: '2' });
      expect(cleared.status).toBe(200);
      expect(await taxIdOf(path)).toBeNull();
    });

    it.each([
      ['PUT', body],
      ['DELETE', undefined],
    ])(
      'refuses developer and readonly %s with 403 naming billing write on customer',
      async (method, payload) => {
        for (const user of ['developer', 'readonly']) {
          const response = await as(user).request(method, ACME_PRO, payload, { version: '2' });
          expect(response.status).toBe(403);
          expect(response.body).toEqual({
            message: 'You do not have permission to do this: it needs billing write on customer',
          });
        }
        expect(await taxIdOf()).toEqual(SEEDED);
      },
    );

    it.each([
      ['PUT', body],
      ['DELETE', undefined],
    ])('answers %s with 404 to an outsider and 401 without a session', async (method, payload) => {
      expect((await as('outsider').request(method, ACME_PRO, payload)).status).toBe(404);
      expect((await server().client().request(method, ACME_PRO, payload)).status).toBe(401);
      expect(await taxIdOf()).toEqual(SEEDED);
    });
  });

  describe('validation: 400 with the rule, nothing written', () => {
    it.each([
      [
        'an unknown kind',
        { type: 'xx_nope', value: '123456', country: 'IE' },
        'Tax ID type xx_nope is not in the catalogue',
      ],
      [
        'an EU VAT kind for a country outside the EU',
        { type: 'eu_vat', value: '123456', country: 'US' },
        'Tax ID type eu_vat is not offered for US',
      ],
      [
        "another country's kind",
        { type: 'us_ein', value: '12-3456789', country: 'IE' },
        'Tax ID type us_ein is not offered for IE',
      ],
      [
        'an unknown country',
        { type: 'eu_vat', value: '123456', country: 'ZZ' },
        'Tax ID type eu_vat is not offered for ZZ',
      ],
      [
        'a one-letter value',
        { type: 'eu_vat', value: '1', country: 'IE' },
        'Tax ID needs to be set.',
      ],
      ['a blank value', { type: 'eu_vat', value: '   ', country: 'IE' }, 'Tax ID needs to be set.'],
      ['no value', { type: 'eu_vat', country: 'IE' }, 'Tax ID needs to be set.'],
      [
        'a value too long',
        { type: 'eu_vat', value: '1'.repeat(65), country: 'IE' },
        'Tax ID must be at most 64 characters',
      ],
      ['no type', { value: '1234567AB', country: 'IE' }, 'Tax ID type is required'],
      ['no country', { type: 'eu_vat', value: '1234567AB' }, 'Tax ID country is required'],
      [
        'an unknown field',
        { type: 'eu_vat', value: '1234567AB', country: 'IE', name: 'IE VAT' },
        'body: Unrecognized key: "name"',
      ],
    ])('refuses %s', async (_case, body, message) => {
      const response = await as('owner').request('PUT', ACME_PRO, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
      expect(await taxIdOf()).toEqual(SEEDED);
    });

    it('refuses a Version header it does not know, deleting nothing', async () => {
      const response = await as('owner').request('DELETE', ACME_PRO, undefined, { version: '3' });
      expect(response.status).toBe(400);
      expect(await taxIdOf()).toEqual(SEEDED);
    });
  });

  describe('the VAT prefix on the server', () => {
    const path = '/platform/organizations/payg-co/tax-ids';

    it.each([
      ['adds it when the value lacks it', 'eu_vat', 'IE', '1234567AB', 'IE1234567AB'],
      ['keeps it when the value has it', 'eu_vat', 'IE', 'IE1234567AB', 'IE1234567AB'],
      ['writes it in capitals', 'eu_vat', 'ie', 'ie1234567AB', 'IE1234567AB'],
      ['adds a three-letter prefix', 'eu_vat', 'AT', '12345678', 'ATU12345678'],
      ['adds it to a non-EU VAT kind', 'ch_vat', 'CH', '123.456.789 MWST', 'CHE123.456.789 MWST'],
      ['keeps Northern Ireland apart', 'eu_vat', 'GB', 'XI123456789', 'XI123456789'],
      ['gives a bare GB eu_vat the GB prefix', 'eu_vat', 'GB', '123456789', 'GB123456789'],
      ['adds nothing to a kind without one', 'au_abn', 'AU', ' 12345678912 ', '12345678912'],
    ])('%s', async (_case, type, country, value, stored) => {
      const response = await as('owner').request('PUT', path, { type, value, country });
      expect(response.status).toBe(200);
      const expected = { type, value: stored, country: country.toUpperCase() };
      expect(response.body).toEqual({ tax_id: expected });
      expect(await taxIdOf(path)).toEqual(expected);
    });

    it('replaces the tax ID before: an organization has one', async () => {
      await as('owner').request('PUT', path, { type: 'eu_vat', value: '1234567AB', country: 'IE' });
      await as('owner').request('PUT', path, { type: 'eu_vat', value: '123456789', country: 'DE' });
      expect(await taxIdOf(path)).toEqual({ type: 'eu_vat', value: 'DE123456789', country: 'DE' });
    });
  });

  describe('DELETE /tax-ids', () => {
    const path = '/platform/organizations/oriole-co/tax-ids';

    it('clears the tax ID with the Version: 2 header and answers {tax_id: null}', async () => {
      await as('owner').request('PUT', path, { type: 'eu_vat', value: '1234567AB', country: 'IE' });
      const response = await as('owner').request('DELETE', path, undefined, { Version: '2' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ tax_id: null });
      expect(await taxIdOf(path)).toBeNull();
    });

    it('answers the same when there is none, and without the header', async () => {
      const again = await as('owner').request('DELETE', path, undefined, { Version: '2' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ tax_id: null });
      const plain = await as('owner').request('DELETE', path);
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual({ tax_id: null });
    });

    it('leaves the billing name and address alone', async () => {
      const customer = '/platform/organizations/oriole-co/customer';
      const before = await as('owner').get(customer);
      await as('owner').request('PUT', path, { type: 'eu_vat', value: '1234567AB', country: 'IE' });
      await as('owner').request('DELETE', path, undefined, { Version: '2' });
      expect((await as('owner').get(customer)).body).toEqual(before.body);
    });
  });

  it('describes the routes, their bodies and their errors in the OpenAPI document', async () => {
    const response = await server().client().get<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>
      >;
    }>('/platform/openapi.json');
    const paths = response.body.paths['/platform/organizations/{slug}/tax-ids'];
    expect(Object.keys(paths ?? {}).sort()).toEqual(['delete', 'get', 'put']);
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
    expect(paths?.delete?.parameters?.map((parameter) => parameter.name)).toContain('version');
  });
});
