import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { EnvError, parseEnv } from './env';

const linesOf = (raw: Record<string, string>) => {
  try {
    parseEnv(raw);
  } catch (e) {
    if (e instanceof EnvError) return e.lines;
    throw e;
  }
  return [];
};

describe('parseEnv', () => {
  it('applies the documented defaults (README "Configuration")', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMS_PROVIDER).toBe('console');
    expect(env.NODE_ENV).toBe('development');
    expect(env.AGENT_EMAILS).toEqual([]);
  });

  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('reports one clear line per bad variable', () => {
    const lines = linesOf({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMS_PROVIDER: 'pigeon', BALLOT_KEY: 'short' });
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith('PORT:'))).toBeDefined();
    expect(lines).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(lines.find((l) => l.startsWith('SMS_PROVIDER:'))).toBeDefined();
    expect(lines.find((l) => l.startsWith('BALLOT_KEY:'))).toMatch(/32 bytes/);
  });

  it('refuses production without SMTP, a real SMS provider, BALLOT_KEY and SESSION_SECRET', () => {
    const lines = linesOf({ NODE_ENV: 'production' });
    expect(lines.map((l) => l.split(':')[0])).toEqual(
      expect.arrayContaining(['SMTP_URL', 'SMS_PROVIDER', 'BALLOT_KEY', 'SESSION_SECRET']),
    );
  });

  it('requires the webhook URL for the webhook SMS provider', () => {
    expect(linesOf({ SMS_PROVIDER: 'webhook' })).toEqual(['SMS_WEBHOOK_URL: is required when SMS_PROVIDER=webhook']);
  });

  it('parses AGENT_EMAILS as a list and validates each', () => {
    expect(parseEnv({ AGENT_EMAILS: 'A@x.org, b@y.org' }).AGENT_EMAILS).toEqual(['a@x.org', 'b@y.org']);
    expect(linesOf({ AGENT_EMAILS: 'a@x.org,nope' })[0]).toMatch(/^AGENT_EMAILS:/);
  });

  it('accepts a production configuration', () => {
    const env = parseEnv({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: 'http://sms.local/send',
      BALLOT_KEY: 'a'.repeat(64),
      SESSION_SECRET: 'b'.repeat(40),
    });
    expect(env.NODE_ENV).toBe('production');
  });

  it('composes DATABASE_URL from its parts, percent-encoding a password with / @ # + % : ? and spaces', async () => {
    const password = 'p/@ss#w+rd%20:?& x';
    const env = parseEnv({ DATABASE_HOST: 'postgres', DATABASE_USER: 'kura', DATABASE_PASSWORD: password, DATABASE_NAME: 'kura' });
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/kura:[^/@#?]+@postgres:5432\/kura$/);
    // The driver reads back exactly the password that was set (no connection is opened).
    const sql = postgres(env.DATABASE_URL!);
    expect(sql.options.pass).toBe(password);
    expect(sql.options.host).toEqual(['postgres']);
    expect(sql.options.database).toBe('kura');
    await sql.end();
    // An explicit DATABASE_URL wins over the parts.
    expect(parseEnv({ DATABASE_URL: 'postgres://a@b/c', DATABASE_HOST: 'x' }).DATABASE_URL).toBe('postgres://a@b/c');
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
  });
});
