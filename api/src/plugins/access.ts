import {
  hasPermission,
  missingPermissionMessage,
  type Permission,
  type Role,
} from '@meterline/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import { findLiveSession, findLiveSessionInOrganization } from '../repositories/sessions.ts';
import { HttpError } from './errors.ts';

/**
 * Who may call a route. Every route under /platform must declare one; the server refuses to start otherwise,
 * so a forgotten check is a crash at boot, not an open door.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  /** A member of the organization in the `slug` path parameter, holding the permission. */
  | { kind: 'org'; permission: Permission }
  /** Operator calls authenticated by the metering key. */
  | { kind: 'operator' };

export interface OrgContext {
  organizationId: string;
  slug: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    org: OrgContext | null;
  }
}

export const NOT_FOUND_ORG = 'Organization not found';

export default fp(
  async function access(
    app: FastifyInstance,
    opts: { db: Db; clock: Clock; operatorKey: string | undefined },
  ) {
    const { db, clock, operatorKey } = opts;
    app.decorateRequest('org', null);

    app.addHook('onRoute', (route) => {
      const guarded = route.url.startsWith('/platform') || route.url.startsWith('/internal');
      const isDocs = route.url.startsWith('/platform/docs');
      const access = (route.config as { access?: Access } | undefined)?.access;
      if (guarded && !isDocs && !access) {
        throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
      }
      if (access?.kind === 'org' && !route.url.includes(':slug')) {
        throw new Error(`Route ${route.url} checks an organization permission but has no :slug`);
      }
    });

    // preValidation: who may call is settled before the input is even looked at.
    app.addHook('preValidation', async (request) => {
      const access = request.routeOptions.config.access;
      if (!access || access.kind === 'public') return;
      if (access.kind === 'operator') {
        const header = request.headers.authorization ?? '';
        if (!operatorKey || header !== `Bearer ${operatorKey}`) {
          throw new HttpError(401, 'A valid operator key is required');
        }
        return;
      }
      const sessionId = request.sessionId;
      const now = clock.now();
      if (access.kind === 'user') {
        const found = sessionId ? await findLiveSession(db, sessionId, now) : undefined;
        if (!found) throw new HttpError(401, 'You need to sign in');
        request.user = { id: found.user_id, email: found.email, name: found.name };
        return;
      }

      // Organization routes always have a :slug (checked when the route is added).
      const { slug } = request.params as { slug: string };
      const found = sessionId
        ? await findLiveSessionInOrganization(db, sessionId, now, slug)
        : undefined;
      if (!found) throw new HttpError(401, 'You need to sign in');
      request.user = { id: found.user_id, email: found.email, name: found.name };
      const { role, organization_id: organizationId } = found;
      // Outsiders learn nothing: an organization they are not in does not exist for them.
      if (!role || !organizationId) throw new HttpError(404, NOT_FOUND_ORG);
      if (!hasPermission(role, access.permission)) {
        throw new HttpError(403, missingPermissionMessage(access.permission));
      }
      request.org = { organizationId, slug, role };
    });
  },
  { name: 'access', dependencies: ['session'] },
);
