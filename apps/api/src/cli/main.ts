import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { ExitCode } from './cli-context';
import { registerAsk } from './commands/ask.command';
import { registerDb } from './commands/db.command';
import { registerEval } from './commands/eval.command';
import { registerIndex } from './commands/index.command';
import { registerKeys } from './commands/keys.command';
import { registerMcp } from './commands/mcp.command';
import { registerRanker } from './commands/ranker.command';
import { registerSearch } from './commands/search.command';
import { registerServe } from './commands/serve.command';
import { registerSources } from './commands/sources.command';
import { registerStatus } from './commands/status.command';
import { registerTasks } from './commands/tasks.command';
import { registerWorkspaces } from './commands/workspaces.command';

/** `sextant` — every command has --help. Commands share the app's services through Nest. */
export function buildProgram(): Command {
  const program = new Command('sextant')
    .description('Sextant: code-and-history search for teams and their AI agents')
    .version(require('../../package.json').version as string)
    .showHelpAfterError()
    .exitOverride();
  registerServe(program);
  registerDb(program);
  registerIndex(program);
  registerStatus(program);
  registerSearch(program);
  registerAsk(program);
  registerRanker(program);
  registerTasks(program);
  registerEval(program);
  registerKeys(program);
  registerMcp(program);
  registerWorkspaces(program);
  registerSources(program);
  return program;
}

/** Commander's codes for a command line that is wrong (exit 3, "invalid input", as the README says). */
const USAGE_ERRORS = new Set([
  'commander.unknownCommand',
  'commander.unknownOption',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.invalidArgument',
  'commander.excessArguments',
  'commander.conflictingOption',
]);

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    // Commander has printed the problem (with a "Did you mean …?" for a mistyped command).
    if (err instanceof CommanderError) process.exit(USAGE_ERRORS.has(err.code) ? ExitCode.BadInput : err.exitCode);
    process.stderr.write(`sextant: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

if (require.main === module) void runCli(process.argv);
