import { z } from 'zod';
import { FEATURES } from '../organization/features.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { PERMISSIONS } from '../permissions/permissions.ts';
import { ROLES } from '../permissions/roles.ts';

export const signInBodySchema = z
  .object({
    email: z.email({ error: 'Email must be a valid email address' }).max(254),
    password: z.string().min(1, 'Password is required').max(1024),
  })
  .meta({ id: 'SignIn' });
export type SignInBody = z.infer<typeof signInBodySchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const signInResponseSchema = z.object({ user: userSchema }).meta({ id: 'SignInResponse' });
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const profileOrganizationSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type ProfileOrganization = z.infer<typeof profileOrganizationSchema>;

export const profileSchema = z
  .object({
    user: userSchema,
    organizations: z.array(profileOrganizationSchema),
    disabled_features: z.array(z.enum(FEATURES)),
    project_updates_disabled: z.boolean(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

export const csrfTokenSchema = z.object({ token: z.string() }).meta({ id: 'CsrfToken' });
