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
});

describe('TRUST_PROXY', () => {
  const problem = (value: string) => {
    try {
      loadConfig({ TRUST_PROXY: value });
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it("takes the proxies' addresses and ranges", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8,uniquelocal' }).TRUST_PROXY).toEqual([
      '::1',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  it('refuses true and hop counts, which let a client choose its address, naming the form to use', () => {
    for (const value of ['true', '1']) {
      const message = problem(value);
      expect(message).toContain(`TRUST_PROXY: ${value === 'true' ? 'true would trust' : 'a hop'}`);
      expect(message).toContain('TRUST_PROXY=127.0.0.1,10.0.0.0/8');
    }
    expect(problem('2')).toContain(
      'TRUST_PROXY: a hop count cannot tell a proxy from a client that reaches the server directly',
    );
  });

  it('names each entry that is neither an address nor a range', () => {
    expect(problem('10.0.0.0/33,proxy.internal, 127.0.0.1')).toContain(
      'TRUST_PROXY: "10.0.0.0/33", "proxy.internal" are not an IP address, a CIDR range',
    );
    expect(problem('yes')).toContain('"yes" is not an IP address');
    expect(problem('10.0.0.1/')).toContain('"10.0.0.1/" is not');
  });
});
