import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../repositories/record-audit.ts';

const USER_AGENT_MAX = 512;

/**
 * Who is making this request, for the audit log: the access token it carries, else the signed-in member,
 * else the operator (the metering key's routes). The address is Fastify's `request.ip`, which believes
 * `X-Forwarded-For` only from the proxies TRUST_PROXY names.
 */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const userAgent = request.headers['user-agent'];
  const where = {
    ip: request.ip || null,
    user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
  };
  if (request.accessToken) {
    return { actor: { type: 'token', id: request.accessToken.id, email: null }, ...where };
  }
  if (request.user) {
    return { actor: { type: 'user', id: request.user.id, email: request.user.email }, ...where };
  }
  return { actor: { type: 'operator', id: 'metering_key', email: null }, ...where };
}
