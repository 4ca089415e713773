import { z } from 'zod';

const EMAIL = z.email();

export const BILLING_EMAIL_MESSAGE = 'Please provide a valid email address';

export function invalidAdditionalEmailMessage(value: string): string {
  return `"${value}" is not a valid email address`;
}

/** The organization update call: name, billing email and the additional recipients. */
export const organizationUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'Organization name is required').max(100).optional(),
    billing_email: z
      .string()
      .trim()
      .pipe(z.email({ error: BILLING_EMAIL_MESSAGE }))
      .optional(),
    additional_billing_emails: z
      .array(z.string().trim())
      .max(20, 'At most 20 additional recipients')
      .superRefine((emails, ctx) => {
        emails.forEach((email, index) => {
          if (!EMAIL.safeParse(email).success) {
            ctx.addIssue({
              code: 'custom',
              path: [index],
              message: invalidAdditionalEmailMessage(email),
            });
          }
        });
      })
      .optional(),
  })
  .strict()
  .meta({ id: 'OrganizationUpdate' });
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;
