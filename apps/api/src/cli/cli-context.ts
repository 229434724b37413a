import { ConfigError, loadConfig, type AppConfig } from '../config/config.schema';

/** Exit codes the CLI uses, so scripts can tell failures apart. */
export const ExitCode = { Ok: 0, Failure: 1, BadConfig: 2, BadInput: 3, Busy: 4 } as const;

/** Loads config from the environment plus CLI overrides; on failure prints the bad variables and exits 2. */
export function loadConfigOrExit(overrides: Record<string, string | undefined> = {}): AppConfig {
  const env = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) env[k] = v;
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`sextant: ${err.message}\n`);
      process.exit(ExitCode.BadConfig);
    }
    throw err;
  }
}

export function fail(message: string, code: number = ExitCode.Failure): never {
  process.stderr.write(`sextant: ${message}\n`);
  process.exit(code);
}
