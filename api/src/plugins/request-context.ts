import { hasPermission, tokenScopeAllows, type Permission } from '@meterline/domain';
import type { FastifyRequest } from 'fastify';
import type { OrgContext } from './access.ts';
import { HttpError } from './errors.ts';
import type { SessionUser } from './session.ts';

// The access guard has already answered 401/404 when these are missing; these only narrow the types.
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new HttpError(401, 'You need to sign in');
  return request.user;
}

export function requireOrg(request: FastifyRequest): OrgContext {
  if (!request.org) throw new HttpError(404, 'Organization not found');
  return request.org;
}

/**
 * What the caller may read beyond the route's own permission: the member's role decides, or the access
 * token's scope when a token calls. A route that answers more than one resource's data asks this.
 */
export function callerMay(request: FastifyRequest): (permission: Permission) => boolean {
  const org = requireOrg(request);
  const token = request.accessToken;
  if (org.role) return (permission) => hasPermission(org.role, permission);
  if (token) return (permission) => tokenScopeAllows(token.scope, 'GET', permission);
  return () => false;
}
