import { z } from 'zod';
import { controlCharactersMessage, PLAIN_TEXT } from './common.ts';

const EMAIL = z.email();
/** The longest address SMTP carries (RFC 5321's path limit). */
const EMAIL_MAX = 254;

export const BILLING_EMAIL_MESSAGE = 'Please provide a valid email address';

export function invalidAdditionalEmailMessage(value: string): string {
  return `"${value}" is not a valid email address`;
}

/** The organization update call: name, billing email and the additional recipients. */
export const organizationUpdateSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Organization name is required')
      .max(100, 'Organization name must be at most 100 characters')
      .regex(PLAIN_TEXT, controlCharactersMessage('Organization name'))
      .optional(),
    billing_email: z
      .string()
      .trim()
      .max(EMAIL_MAX, BILLING_EMAIL_MESSAGE)
      .pipe(z.email({ error: BILLING_EMAIL_MESSAGE }))
      // The pipe validates an email; its input side alone would document a bare string.
      .meta({ format: 'email' })
      .optional(),
    additional_billing_emails: z
      .array(
        z
          .string()
          .trim()
          .max(EMAIL_MAX, { error: (issue) => invalidAdditionalEmailMessage(String(issue.input)) })
          // Checked one by one below, each with its own message; the document says what they are.
          .meta({ format: 'email' }),
      )
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
