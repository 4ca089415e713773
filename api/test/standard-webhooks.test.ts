import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { webhookEndpointListSchema, webhookSecretSchema } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { deliverDueWebhooks } from '../src/services/webhooks/delivery-worker.ts';
import { verifySignature } from '../src/services/webhooks/signature.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// Deliveries carry the Standard Webhooks headers beside Meterline-Signature, checked here by the
// `standardwebhooks` package (what Svix-style receivers use); a rotated secret signs for 24 hours more.

const DAY = 24 * 3600;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that keeps what it receives. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers as the library takes them (one string each). */
function headersOf(received: Received): Record<string, string> {
  return Object.fromEntries(
    Object.entries(received.headers).map(([name, value]) => [name, String(value)]),
  );
}

describe.each(testDatabases())('Standard Webhooks (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let as: (user: string) => TestClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      env: { WEBHOOK_INTERVAL_SECONDS: '0', EMAIL_OUTBOX_INTERVAL_SECONDS: '0' },
    });
    as = await signInEveryone(server);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const base = '/platform/organizations/acme-team/webhooks';
  // The worker judges a rotated secret's 24 hours by the server's clock, as the rotation dated them.
  const deliver = () => deliverDueWebhooks(server.database.db, { production: false, clock });

  /** Sends a test event to the endpoint and answers what the receiver got. */
  async function testDelivery(endpointId: string): Promise<Received> {
    receiver.received.length = 0;
    expect((await as('owner').post(`${base}/${endpointId}/test`)).status).toBe(202);
    await deliver();
    const got = receiver.received.find(
      (item) =>
        (JSON.parse(item.body) as { data: { endpoint_id: string } }).data.endpoint_id ===
        endpointId,
    );
    if (!got) throw new Error('the receiver got nothing');
    return got;
  }

  it('a delivery verifies with the standardwebhooks library, given the secret as shown', async () => {
    const created = await as('owner').post(base, { url: receiver.url, events: ['invoice.paid'] });
    expect(created.status).toBe(201);
    const { endpoint, secret } = webhookSecretSchema.parse(created.body);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const got = await testDelivery(endpoint.id);
    const headers = headersOf(got);
    const event = JSON.parse(got.body) as { id: string; type: string };
    expect(headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({
      id: event.id,
      type: 'webhook.test',
    });
    // Meterline-Signature stays, verified as before.
    expect(verifySignature(secret, headers['meterline-signature'], got.body)).toBe(true);

    // A body changed on the way, or another secret, does not verify.
    expect(() => new Webhook(secret).verify(`${got.body} `, headers)).toThrow(
      WebhookVerificationError,
    );
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => new Webhook(other).verify(got.body, headers)).toThrow(WebhookVerificationError);

    // The same delivery sent again keeps its webhook-id, so a receiver drops the repeat.
    const [delivery] = (
      (await as('owner').get(`${base}/${endpoint.id}/deliveries`)).body as {
        deliveries: { id: string }[];
      }
    ).deliveries;
    receiver.received.length = 0;
    await as('owner').post(`${base}/${endpoint.id}/deliveries/${delivery?.id}/resend`);
    await deliver();
    expect(receiver.received[0]?.headers['webhook-id']).toBe(event.id);
  });

  it('after a rotation both secrets verify for 24 hours, then only the new one', async () => {
    const created = await as('owner').post(base, { url: receiver.url, events: ['invoice.paid'] });
    const { endpoint, secret: old } = webhookSecretSchema.parse(created.body);
    expect(endpoint.previous_secret_expires_at).toBeNull();

    const rotatedAt = clock.now();
    const rotated = await as('admin').post(`${base}/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret: next, endpoint: after } = webhookSecretSchema.parse(rotated.body);
    expect(next).not.toBe(old);
    const expiresAt = Math.floor(rotatedAt.getTime() / 1000) + DAY;
    expect(after.previous_secret_expires_at).toBe(expiresAt);
    const listed = webhookEndpointListSchema
      .parse((await as('owner').get(base)).body)
      .endpoints.find((item) => item.id === endpoint.id);
    expect(listed?.previous_secret_expires_at).toBe(expiresAt);

    // Within the 24 hours: two signatures in each header, and either secret verifies.
    clock.advance(DAY - 60);
    const during = await testDelivery(endpoint.id);
    const duringHeaders = headersOf(during);
    expect(duringHeaders['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(duringHeaders['meterline-signature']?.match(/v1=/g)).toHaveLength(2);
    for (const secret of [old, next]) {
      expect(new Webhook(secret).verify(during.body, duringHeaders)).toMatchObject({
        type: 'webhook.test',
      });
      expect(verifySignature(secret, duringHeaders['meterline-signature'], during.body)).toBe(true);
    }

    // After them: only the new one.
    clock.advance(120);
    const later = await testDelivery(endpoint.id);
    const laterHeaders = headersOf(later);
    expect(laterHeaders['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(new Webhook(next).verify(later.body, laterHeaders)).toMatchObject({
      type: 'webhook.test',
    });
    expect(verifySignature(next, laterHeaders['meterline-signature'], later.body)).toBe(true);
    expect(() => new Webhook(old).verify(later.body, laterHeaders)).toThrow(
      WebhookVerificationError,
    );
    expect(verifySignature(old, laterHeaders['meterline-signature'], later.body)).toBe(false);

    // Rotating twice within the window keeps two secrets signing, never three.
    await as('owner').post(`${base}/${endpoint.id}/rotate-secret`);
    const third = webhookSecretSchema.parse(
      (await as('owner').post(`${base}/${endpoint.id}/rotate-secret`)).body,
    ).secret;
    const twice = await testDelivery(endpoint.id);
    const twiceHeaders = headersOf(twice);
    expect(twiceHeaders['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(third).verify(twice.body, twiceHeaders)).toBeTruthy();
    expect(verifySignature(next, twiceHeaders['meterline-signature'], twice.body)).toBe(false);
  });

  it('a secret made before (base64url) signs Standard Webhooks with its decoded bytes', async () => {
    const created = await as('owner').post(base, { url: receiver.url, events: ['invoice.paid'] });
    const { endpoint } = webhookSecretSchema.parse(created.body);
    const legacy = `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`;
    expect(legacy).toMatch(/[-_]/);
    await server.database.db
      .updateTable('webhook_endpoints')
      .set({ secret: legacy })
      .where('id', '=', endpoint.id)
      .execute();
    const got = await testDelivery(endpoint.id);
    const headers = headersOf(got);
    expect(verifySignature(legacy, headers['meterline-signature'], got.body)).toBe(true);
    const standard = `whsec_${legacy.slice('whsec_'.length).replaceAll('-', '+').replaceAll('_', '/')}`;
    expect(new Webhook(standard).verify(got.body, headers)).toBeTruthy();
  });
});
