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
