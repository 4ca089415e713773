import { describe, expect, it } from 'vitest';
import { operationIdOf } from './openapi-operation-ids.ts';
import { withSamples } from './openapi-samples.ts';

describe('operationIds from method and path', () => {
  it('reads the path as a phrase: context, sections and ids left out', () => {
    const org = '/platform/organizations/{slug}';
    expect(operationIdOf('get', '/platform/organizations')).toBe('listOrganizations');
    expect(operationIdOf('get', `${org}`)).toBe('getOrganization');
    expect(operationIdOf('patch', `${org}`)).toBe('updateOrganization');
    expect(operationIdOf('get', `${org}/billing/invoices`)).toBe('listInvoices');
    expect(operationIdOf('get', `${org}/billing/invoices/{invoiceId}`)).toBe('getInvoice');
    expect(operationIdOf('get', `${org}/billing/invoices/{invoiceId}/pdf`)).toBe('getInvoicePdf');
    expect(operationIdOf('post', `${org}/billing/invoices/{invoiceId}/pay`)).toBe('payInvoice');
    expect(operationIdOf('get', `${org}/billing/invoices/export`)).toBe('exportInvoices');
    expect(operationIdOf('post', '/platform/auth/sign-in')).toBe('signIn');
    expect(operationIdOf('get', '/platform/auth/csrf')).toBe('getCsrfToken');
  });

  it('names what a change acts on in the singular, with the words the API uses', () => {
    const org = '/platform/organizations/{slug}';
    expect(operationIdOf('post', `${org}/tokens`)).toBe('createAccessToken');
    expect(operationIdOf('delete', `${org}/tokens/{id}`)).toBe('deleteAccessToken');
    expect(operationIdOf('get', `${org}/payments`)).toBe('listPaymentMethods');
    expect(operationIdOf('delete', `${org}/payments`)).toBe('deletePaymentMethod');
    expect(operationIdOf('post', `${org}/webhooks`)).toBe('createWebhookEndpoint');
    expect(operationIdOf('put', `${org}/billing/subscription`)).toBe('changePlan');
    expect(operationIdOf('head', `${org}/billing/invoices`)).toBe('countInvoices');
  });
});

describe('examples on numbers', () => {
  it('by the field name, inside the bounds, leaving declared examples, enums and defaults', () => {
    const schema = {
      type: 'object',
      properties: {
        created_at: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        amount_due: { type: ['integer', 'null'] },
        amount: { type: 'integer', minimum: 100, maximum: 2000 },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        exp_month: { type: 'integer', minimum: 1, maximum: 12 },
        name: { type: 'string' },
      },
    };
    expect(withSamples(schema)).toEqual({
      ...schema,
      properties: {
        created_at: { ...schema.properties.created_at, examples: [1767225600] },
        amount_due: { ...schema.properties.amount_due, examples: [2500] },
        amount: { ...schema.properties.amount, examples: [2000] },
        limit: schema.properties.limit,
        exp_month: { ...schema.properties.exp_month, examples: [8] },
        name: schema.properties.name,
      },
    });
  });
});
