import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { organizationUpdateSchema } from './billing-emails.ts';

describe('organizationUpdateSchema', () => {
  it('accepts a billing email and additional recipients', () => {
    const parsed = organizationUpdateSchema.parse({
      billing_email: ' billing@acme.example.com ',
      additional_billing_emails: ['a@b.co'],
    });
    expect(parsed.billing_email).toBe('billing@acme.example.com');
  });

  it('names the bad billing email', () => {
    const result = organizationUpdateSchema.safeParse({ billing_email: 'nope' });
    expect(result.error?.issues[0]?.message).toBe('Please provide a valid email address');
  });

  it('names each bad additional recipient', () => {
    const result = organizationUpdateSchema.safeParse({
      additional_billing_emails: ['ok@example.com', 'bad'],
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      '"bad" is not a valid email address',
    ]);
    expect(result.error?.issues[0]?.path).toEqual(['additional_billing_emails', 1]);
  });

  it('documents the billing email as an email, and refuses control characters in the name', () => {
    const document = z.toJSONSchema(organizationUpdateSchema, { io: 'input' });
    expect(document.$defs?.OrganizationUpdate?.properties?.billing_email).toMatchObject({
      format: 'email',
      maxLength: 254,
    });
    const result = organizationUpdateSchema.safeParse({ name: 'Acme\u0000' });
    expect(result.error?.issues[0]?.message).toBe(
      'Organization name must not contain control characters',
    );
  });

  it('refuses unknown fields', () => {
    expect(organizationUpdateSchema.safeParse({ plan: 'team' }).success).toBe(false);
  });
});
