import { describe, expect, it } from 'vitest';
import { domainSchemaNames } from './openapi-names.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('domain schema names', () => {
  const document = {
    paths: {
      '/a': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref('ChangeInput') } } },
          responses: {
            200: { content: { 'application/json': { schema: ref('Invoice') } } },
            400: { content: { 'application/json': { schema: ref('ErrorInput') } } },
          },
        },
        put: {
          requestBody: { content: { 'application/json': { schema: ref('PlanInput') } } },
          responses: { 200: { content: { 'application/json': { schema: ref('Plan') } } } },
        },
      },
    },
    components: {
      schemas: {
        ChangeInput: { type: 'object', properties: { line: ref('LineInput') } },
        Change: { type: 'object', properties: { line: ref('Line') } },
        LineInput: { type: 'string' },
        Line: { type: 'string' },
        InvoiceInput: { type: 'object' },
        Invoice: { type: 'object' },
        ErrorInput: { type: 'object', properties: { message: { type: 'string' } } },
        Error: { type: 'object', properties: { message: { type: 'string' } } },
        // Read with a default, written without: two schemas.
        PlanInput: { type: 'object', properties: { id: { type: 'string', default: 'pro' } } },
        Plan: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        Metric: { enum: ['EGRESS'] },
        MetricInput: { enum: ['EGRESS'] },
      },
    },
  };
  const named = domainSchemaNames(document);

  it('keeps one schema per name, under the domain name', () => {
    expect(Object.keys(named.components.schemas).sort()).toEqual([
      'Change',
      'Error',
      'Invoice',
      'Line',
      'Metric',
      'Plan',
      'PlanRequest',
    ]);
    expect(named.components.schemas.Change).toEqual(document.components.schemas.Change);
  });

  it('points every reference at the renamed schema', () => {
    const post = named.paths['/a'].post;
    expect(post.requestBody.content['application/json'].schema).toEqual(ref('Change'));
    expect(post.responses[400].content['application/json'].schema).toEqual(ref('Error'));
    const put = named.paths['/a'].put;
    expect(put.requestBody.content['application/json'].schema).toEqual(ref('PlanRequest'));
    expect(put.responses[200].content['application/json'].schema).toEqual(ref('Plan'));
  });
});
