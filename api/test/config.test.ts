import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('runs on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: './.data',
      DISABLE_PROJECT_CREATION_AND_UPDATES: false,
      DISABLED_FEATURES: [],
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ PORT: 8080 });
  });

  it('reads the switches', () => {
    const config = loadConfig({
      DISABLE_PROJECT_CREATION_AND_UPDATES: 'true',
      DISABLED_FEATURES: 'invoices, credits',
    });
    expect(config.DISABLE_PROJECT_CREATION_AND_UPDATES).toBe(true);
    expect(config.DISABLED_FEATURES).toEqual(['invoices', 'credits']);
  });

  it('names every bad value in one message', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://localhost/x',
        DISABLED_FEATURES: 'invoices,teleport',
        DISABLE_PROJECT_CREATION_AND_UPDATES: 'maybe',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
      expect(message).toContain('unknown feature teleport');
      expect(message).toContain('DISABLE_PROJECT_CREATION_AND_UPDATES');
    }
  });

  it('waits an hour for late usage before closing a cycle, unless told otherwise', () => {
    expect(loadConfig({}).BILLING_CLOSE_GRACE_MINUTES).toBe(60);
    expect(loadConfig({ BILLING_CLOSE_GRACE_MINUTES: '0' }).BILLING_CLOSE_GRACE_MINUTES).toBe(0);
    for (const bad of ['-1', '1.5', 'an hour', '10081']) {
      expect(() => loadConfig({ BILLING_CLOSE_GRACE_MINUTES: bad })).toThrow(
        /BILLING_CLOSE_GRACE_MINUTES/,
      );
    }
  });
});
