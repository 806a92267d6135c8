import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { EnvError, parseEnv } from './env';

const STRONG_KEY = '3f9a1c7e5b2d8046f1e3a7c9b5d20e4f6a8c1e3b5d7f9021436587a9cbdef012';
const STRONG_SECRET = 'q7Yw2Lp9Xz4Nc6Vb8Mk1Jh3Gf5Ds0Aa-r2T';

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
  it('applies the documented defaults (docs/operations.md "Configuration")', () => {
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
    expect(lines.map((l) => l.split(':')[0])).toEqual(expect.arrayContaining(['SMTP_URL', 'SMS_PROVIDER', 'BALLOT_KEY', 'SESSION_SECRET']));
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
      BALLOT_KEY: STRONG_KEY,
      SESSION_SECRET: STRONG_SECRET,
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

describe('weak secrets are refused at start (security hardening)', () => {
  it('refuses 32 identical characters, a repeated pattern, few distinct characters, and a weak BALLOT_KEY', () => {
    for (const weak of ['a'.repeat(32), 'ab'.repeat(20), 'password'.repeat(4), '0123012301230123012301230123012301230123']) {
      expect(
        linesOf({ SESSION_SECRET: weak }).find((l) => l.startsWith('SESSION_SECRET:')),
        weak,
      ).toMatch(/too predictable/);
    }
    expect(linesOf({ BALLOT_KEY: '00'.repeat(32) }).find((l) => l.startsWith('BALLOT_KEY:'))).toMatch(/too predictable/);
    expect(linesOf({ BALLOT_KEY: 'ab'.repeat(32) }).find((l) => l.startsWith('BALLOT_KEY:'))).toMatch(/too predictable/);
  });

  it('accepts generated secrets', () => {
    for (let i = 0; i < 50; i++) {
      const env = parseEnv({ SESSION_SECRET: randomBytes(32).toString('hex'), BALLOT_KEY: randomBytes(32).toString('base64') });
      expect(env.SESSION_SECRET).toBeTruthy();
      expect(parseEnv({ SESSION_SECRET: randomBytes(24).toString('base64') }).SESSION_SECRET).toBeTruthy();
    }
  });
});
