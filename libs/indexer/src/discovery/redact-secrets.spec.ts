import { REDACTED, redactSecrets } from './redact-secrets';

// Built at run time so this file does not itself look like it holds secrets.
const fake = (prefix: string, body: string, n: number) => prefix + body.repeat(Math.ceil(n / body.length)).slice(0, n);

describe('redactSecrets', () => {
  it.each([
    ['GitHub classic token', fake('ghp_', 'aB3', 36)],
    ['GitHub fine-grained token', fake('github_pat_', 'Ab3_', 40)],
    ['OpenAI project key', fake('sk-proj-', 'aB3-', 40)],
    ['Slack bot token', fake('xoxb-', '12345-', 30)],
    ['AWS access key id', fake('AKIA', 'Q7Z', 16)],
    ['Stripe live key', fake('sk_live_', 'aB3', 24)],
    ['Google API key', fake('AIza', 'aB3_', 35)],
    ['Sextant API key', fake('sxt_0a1b2c3d_', 'aB3', 40)],
    ['Anthropic API key', fake('sk-ant-api03-', 'aB3_-', 95)],
    ['npm token', fake('npm_', 'aB3', 36)],
    ['GitLab personal access token', fake('glpat-', 'aB3_', 20)],
  ])('replaces a %s and nothing around it', (_name, secret) => {
    const { text, redactions } = redactSecrets(`const token = "${secret}"; // rotate yearly\n`);
    expect(text).toBe(`const token = "${REDACTED}"; // rotate yearly\n`);
    expect(redactions).toBe(1);
  });

  it('keeps the name of an AWS secret key assignment and redacts only its value, in any case', () => {
    const value = fake('', 'Ab3/+', 40);
    const { text, redactions } = redactSecrets(`aws_secret_access_key = "${value}"\nAWS_SECRET_KEY: '${value}'\n`);
    expect(text).toBe(`aws_secret_access_key = "${REDACTED}"\nAWS_SECRET_KEY: '${REDACTED}'\n`);
    expect(redactions).toBe(2);
  });

  it('removes a whole private key block but keeps its line count, so later lines keep their numbers', () => {
    const block = ['-----BEGIN RSA PRIVATE KEY-----', fake('', 'MIIEow', 64), fake('', 'Qk9y', 64), '-----END RSA PRIVATE KEY-----'].join('\n');
    const { text } = redactSecrets(`const key = \`${block}\`;\nexport const after = 1;\n`);
    expect(text).not.toContain('MIIEow');
    expect(text.split('\n')).toHaveLength(6);
    expect(text.split('\n')[4]).toBe('export const after = 1;');
  });

  it('redacts only the password of a connection URL', () => {
    const password = fake('', 's3cR', 12);
    const { text, redactions } = redactSecrets(`DATABASE_URL=postgres://app:${password}@db.internal:5432/main\nREDIS_URL="rediss://:${password}@cache:6380"\n`);
    expect(text).toBe(`DATABASE_URL=postgres://app:${REDACTED}@db.internal:5432/main\nREDIS_URL="rediss://:${REDACTED}@cache:6380"\n`);
    expect(redactions).toBe(2);
  });

  it('leaves ordinary code alone', () => {
    const code = 'const awsSecretKeyName = "aws_secret_access_key";\nconst sk = "sk-not-a-key";\nfunction ghp_helper() {}\nconst url = "https://example.com:8080/a@b";\nconst email = "mailto:someone@example.com";\n';
    expect(redactSecrets(code)).toEqual({ text: code, redactions: 0 });
  });
});
