import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { controlCharactersMessage, PLAIN_TEXT } from './common.ts';

const EMAIL = z.email();
/** The longest address SMTP carries (RFC 5321's path limit). */
const EMAIL_MAX = 254;

export const BILLING_EMAIL_MESSAGE = 'Please provide a valid email address';

export function invalidAdditionalEmailMessage(value: string): string {
  return `"${value}" is not a valid email address`;
}

/** The organization update call: name, billing email and the additional recipients. */
export const organizationUpdateSchema = documented(
  z.strictObject({
    name: z.optional(
      z
        .string()
        .check(z.trim())
        .check(z.minLength(1, 'Organization name is required'))
        .check(z.maxLength(100, 'Organization name must be at most 100 characters'))
        .check(z.regex(PLAIN_TEXT, controlCharactersMessage('Organization name'))),
    ),
    billing_email: z.optional(
      documented(
        z.pipe(
          z.string().check(z.trim()).check(z.maxLength(EMAIL_MAX, BILLING_EMAIL_MESSAGE)),
          z.email({ error: BILLING_EMAIL_MESSAGE }),
        ),
        { format: 'email' },
      ),
    ),
    additional_billing_emails: z.optional(
      z
        .array(
          documented(
            z
              .string()
              .check(z.trim())
              .check(
                z.maxLength(EMAIL_MAX, {
                  error: (issue) => invalidAdditionalEmailMessage(String(issue.input)),
                }),
              ),
            { format: 'email' },
          ),
        )
        .check(z.maxLength(20, 'At most 20 additional recipients'))
        .check(
          z.superRefine((emails, ctx) => {
            emails.forEach((email, index) => {
              if (!EMAIL.safeParse(email).success) {
                ctx.addIssue({
                  code: 'custom',
                  path: [index],
                  message: invalidAdditionalEmailMessage(email),
                });
              }
            });
          }),
        ),
    ),
  }),
  { id: 'OrganizationUpdate' },
);
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;
