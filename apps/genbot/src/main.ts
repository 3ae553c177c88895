import { loadConfig } from '@genbot/core/config';
import { createLogger } from '@genbot/core/log';
import { parseCommand, type Command } from './args.js';
import { runChat } from './commands/chat.js';
import type { CommandContext } from './commands/context.js';
import { runEdit } from './commands/edit.js';
import { runImagine } from './commands/imagine.js';
import { runText } from './commands/text.js';
import { loadEnvFile } from './env-file.js';
import { ExitCode, failureFor } from './exit-codes.js';
import { isLaunchCommand, type LaunchCommand } from './launcher/args.js';
import { openService, type OpenService } from './service.js';

// Quiet by default: stdout is the result and stderr should hold only what needs attention.
const CLI_DEFAULT_LOG_LEVEL = 'warn';

async function main(argv: readonly string[]): Promise<ExitCode> {
  const controller = new AbortController();
  try {
    loadEnvFile();
    const command = parseCommand(argv);
    if (command.kind === 'help') {
      process.stdout.write(`${command.text}\n`);
      return ExitCode.ok;
    }
    // The bots and the playground run until a signal, and handle signals themselves.
    // Loaded on demand: the bots' libraries would slow every other command down.
    if (isLaunchCommand(command)) return await (await import('./launcher/run.js')).runLauncher(command);
    process.once('SIGINT', () => controller.abort(new Error('interrupted')));
    const config = loadConfig(process.env);
    const logger = createLogger({
      level: process.env.LOG_LEVEL === undefined ? CLI_DEFAULT_LOG_LEVEL : config.logLevel,
      secrets: config.secrets,
    });
    let service: OpenService | undefined;
    try {
      await run(command, {
        connect: async () => {
          service ??= await openService(config.service, logger);
          return service.client;
        },
        service: config.service,
        logger,
        // `pnpm genbot` runs in the repository root; INIT_CWD is where the user typed the command.
        cwd: process.env.INIT_CWD ?? process.cwd(),
        stdout: process.stdout,
        stderr: process.stderr,
        signal: controller.signal,
      });
    } finally {
      await service?.close();
    }
    return ExitCode.ok;
  } catch (err) {
    if (controller.signal.aborted) {
      process.stderr.write('genbot: interrupted\n');
      return ExitCode.interrupted;
    }
    // The reader closed the pipe (`genbot chat ... | head`): it has all it wanted, nothing to report.
    if (err instanceof Error && 'code' in err && err.code === 'EPIPE') return ExitCode.ok;
    const failure = failureFor(err);
    process.stderr.write(`${failure.message}\n`);
    return failure.code;
  }
}

function run(command: Exclude<Command, { kind: 'help' } | LaunchCommand>, ctx: CommandContext): Promise<void> {
  switch (command.kind) {
    case 'chat':
      return runChat(command, ctx);
    case 'text':
      return runText(command, ctx);
    case 'imagine':
      return runImagine(command, ctx);
    case 'edit':
      return runEdit(command, ctx);
  }
}

// exitCode rather than process.exit(): stdout may still be flushing into a pipe.
process.exitCode = await main(process.argv.slice(2));
