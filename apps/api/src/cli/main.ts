import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { registerDb } from './commands/db.command';
import { registerEval } from './commands/eval.command';
import { registerIndex } from './commands/index.command';
import { registerKeys } from './commands/keys.command';
import { registerMcp } from './commands/mcp.command';
import { registerRanker } from './commands/ranker.command';
import { registerSearch } from './commands/search.command';
import { registerServe } from './commands/serve.command';
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
  registerRanker(program);
  registerTasks(program);
  registerEval(program);
  registerKeys(program);
  registerMcp(program);
  registerWorkspaces(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    process.stderr.write(`sextant: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

if (require.main === module) void runCli(process.argv);
