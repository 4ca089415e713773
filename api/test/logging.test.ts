import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFormat } from '../src/log-options.ts';
import { answerChallenge, CARDS, confirmSetup, setupIntent } from './support/payments.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('request logs', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => lines.push(line) },
    });
  });
  afterAll(() => server.close());

  it("never hold a 3-D Secure challenge's id, which alone authorizes answering it", async () => {
    const owner = await server.signIn('owner@example.com');
    const confirmed = await confirmSetup(
      owner,
      await setupIntent(owner, 'acme-pro'),
      CARDS.authenticate,
    );
    expect(confirmed.body.status).toBe('requires_action');
    const challengeId =
      confirmed.body.status === 'requires_action' ? confirmed.body.challenge.id : '';
    expect(challengeId).not.toBe('');
    lines.length = 0;

    expect((await answerChallenge(owner, challengeId, 'complete')).status).toBe(200);
    // A repeat, a query string and a route that does not exist quote the id too.
    expect((await answerChallenge(owner, `${challengeId}?again=1`, 'complete')).status).toBe(200);
    expect((await owner.get(`/platform/simulator/challenges/${challengeId}/status`)).status).toBe(
      404,
    );

    const logged = lines.join('');
    expect(logged).toContain('/platform/simulator/challenges/[redacted]');
    expect(logged).not.toContain(challengeId);
    expect(logged).not.toContain(challengeId.slice(-16));
  });
});

describe('the log format', () => {
  it('is readable for a person at a terminal outside production, JSON everywhere else', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ NODE_ENV: 'production' }, true)).toBe('json');
  });

  it('is what LOG_FORMAT names, when it names one', () => {
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });
});
