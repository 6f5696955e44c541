import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../server/src/config.js';
import type { TestApp } from './app.js';

const run = promisify(execFile);

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the server's command-line programs (`server/src/cli/<name>.ts`, as `npm run plus`
 * and `npm run admin` do) as its own process, against the test app's database.
 */
export async function runCli(api: TestApp, name: string, args: string[]): Promise<CliOutcome> {
  const { database, dataDir, publicUrl } = api.config;
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    ...(database.type === 'sqlite' ? { SQLITE_FILE: database.file } : { DATABASE_URL: database.url }),
  };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join('src', 'cli', `${name}.ts`), ...args],
      { cwd: path.join(projectRoot, 'server'), env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliOutcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
