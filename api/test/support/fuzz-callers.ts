import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { FuzzCase } from './fuzz-cases.ts';
import { DEMO_PASSWORD } from '../../src/seed/demo-world-data.ts';

/**
 * The signed-in callers the fuzz suite sends its cases as, through `app.inject` (the whole request
 * pipeline without a socket, which also lets a case carry any bytes and any content type). Several owners
 * of one organization take turns, so that the limits per user (30 payments a minute) leave every case its
 * turn at validation instead of a 429.
 */
export interface Caller {
  email: string;
  cookie: string;
  csrfToken: string;
}

/** Each call a new address: the limits per address (sign-in, captcha, operator key) count each once. */
let addresses = 0;
export function nextAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/** `count` more owners of the organization, with the demo password (its owner's hash). */
export async function addOwners(db: Db, slug: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `fuzz-owner-${index}@example.com`);
  for (const [index, email] of emails.entries()) {
    await sql`
      INSERT INTO users (email, name, password_hash)
      SELECT ${email}, ${`Fuzz owner ${index}`}, password_hash FROM users WHERE email = 'owner@example.com'
    `.execute(db);
    await sql`
      INSERT INTO memberships (organization_id, user_id, role)
      SELECT o.id, u.id, 'owner' FROM organizations o, users u WHERE o.slug = ${slug} AND u.email = ${email}
    `.execute(db);
  }
  return emails;
}

function cookiesOf(response: LightMyRequestResponse, jar: Map<string, string>): void {
  for (const cookie of response.cookies) {
    if (cookie.value === '') jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
}

/** Stands in a case for a captcha token, issued to its caller just before the case is sent. */
export const CAPTCHA = 'cap_FUZZ_CAPTCHA_TOKEN';

const header = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

export async function signIn(app: FastifyInstance, email: string): Promise<Caller> {
  const jar = new Map<string, string>();
  const csrf = async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/platform/auth/csrf',
      headers: { cookie: header(jar) },
    });
    cookiesOf(response, jar);
    return response.json<{ token: string }>().token;
  };
  const signedIn = await app.inject({
    method: 'POST',
    url: '/platform/auth/sign-in',
    headers: { 'x-csrf-token': await csrf(), cookie: header(jar) },
    payload: { email, password: DEMO_PASSWORD },
    remoteAddress: nextAddress(),
  });
  if (signedIn.statusCode !== 200) {
    throw new Error(`sign-in as ${email} answered ${signedIn.statusCode} ${signedIn.body}`);
  }
  cookiesOf(signedIn, jar);
  const csrfToken = await csrf();
  return { email, cookie: header(jar), csrfToken };
}

/** Whether the caller's session still works (a fuzzed sign-out may have ended it). */
export async function stillSignedIn(app: FastifyInstance, caller: Caller): Promise<boolean> {
  const response = await app.inject({
    method: 'GET',
    url: '/platform/profile',
    headers: { cookie: caller.cookie },
  });
  return response.statusCode === 200;
}

/** A built-in captcha token for the caller, as the web app gets one before a top-up. */
export async function captchaToken(app: FastifyInstance, caller: Caller): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/platform/captcha',
    headers: { cookie: caller.cookie, 'x-csrf-token': caller.csrfToken },
    remoteAddress: nextAddress(),
  });
  if (response.statusCode !== 200) throw new Error(`captcha answered ${response.statusCode}`);
  return response.json<{ token: string }>().token;
}

/**
 * A case sent as `caller` (or with the operator key), its credentials broken as the case says, from an
 * address of its own; a captcha token stands in for its placeholder, issued to the caller just before.
 */
export async function send(
  app: FastifyInstance,
  entry: FuzzCase,
  caller: Caller,
  operatorKey: string | undefined,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...entry.headers };
  const { credentials } = entry;
  if (credentials === 'wrong-key') headers.authorization = 'Bearer wrong-key-0123456789';
  if (credentials !== 'anonymous' && credentials !== 'wrong-key') {
    if (operatorKey) headers.authorization = `Bearer ${operatorKey}`;
    else headers.cookie = caller.cookie;
  }
  if (!['GET', 'HEAD'].includes(entry.method) && !operatorKey) {
    if (credentials === 'caller') headers['x-csrf-token'] = caller.csrfToken;
    if (credentials === 'wrong-csrf') headers['x-csrf-token'] = 'wrong';
  }
  let payload = entry.payload;
  if (payload?.includes(CAPTCHA))
    payload = payload.replaceAll(CAPTCHA, await captchaToken(app, caller));
  return app.inject({
    method: entry.method as 'GET',
    url: entry.url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
    remoteAddress: nextAddress(),
  });
}
