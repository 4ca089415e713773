import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { FEATURES } from '../organization/features.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { PERMISSIONS } from '../permissions/permissions.ts';
import { ROLES } from '../permissions/roles.ts';

export const signInBodySchema = documented(
  z.object({
    email: z.email({ error: 'Email must be a valid email address' }).check(z.maxLength(254)),
    password: z.string().check(z.minLength(1, 'Password is required')).check(z.maxLength(1024)),
  }),
  { id: 'SignIn' },
);
export type SignInBody = z.infer<typeof signInBodySchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const signInResponseSchema = documented(z.object({ user: userSchema }), {
  id: 'SignInResponse',
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const profileOrganizationSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type ProfileOrganization = z.infer<typeof profileOrganizationSchema>;

export const profileSchema = documented(
  z.object({
    user: userSchema,
    organizations: z.array(profileOrganizationSchema),
    disabled_features: z.array(z.enum(FEATURES)),
    project_updates_disabled: z.boolean(),
  }),
  { id: 'Profile' },
);
export type Profile = z.infer<typeof profileSchema>;

export const csrfTokenSchema = documented(z.object({ token: z.string() }), { id: 'CsrfToken' });
