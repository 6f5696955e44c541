import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_INFO_FILE, readBuildInfo } from '../../server/src/observability/build-info.js';

const root = path.resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const COMMIT = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);

const folders: string[] = [];
/** A folder with a package.json of version 9.8.7, and the files given. */
function release(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lampstand-release-'));
  folders.push(dir);
  for (const [name, text] of Object.entries({ 'package.json': '{ "version": "9.8.7" }', ...files })) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('CHANGELOG.md', () => {
  it("has the running version's entry as its newest release, under Unreleased", () => {
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings[1]).toMatch(new RegExp(`^${version.replace(/\./g, '\\.')} - \\d{4}-\\d{2}-\\d{2}$`));
  });
});

describe('the build info', () => {
  it("reads the version from package.json and the commit from a checkout's HEAD, loose or packed", () => {
    expect(readBuildInfo(release({ '.git/HEAD': `${COMMIT}\n` }))).toEqual({
      version: '9.8.7',
      commit: COMMIT,
      node: process.versions.node,
    });
    const loose = release({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${COMMIT}\n` });
    expect(readBuildInfo(loose).commit).toBe(COMMIT);
    const packed = release({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/packed-refs': `${OTHER} refs/heads/main\n` });
    expect(readBuildInfo(packed).commit).toBe(OTHER);
  });

  it("follows a worktree's gitdir to the shared refs", () => {
    const main = release({
      '.git/packed-refs': `${OTHER} refs/heads/ops\n`,
      '.git/worktrees/ops/HEAD': 'ref: refs/heads/ops\n',
      '.git/worktrees/ops/commondir': '../..\n',
    });
    const worktree = release({ '.git': `gitdir: ${path.join(main, '.git/worktrees/ops')}\n` });
    expect(readBuildInfo(worktree).commit).toBe(OTHER);
  });

  it(`prefers ${BUILD_INFO_FILE} (an image has no .git), and says null rather than guess`, () => {
    const built = release({ [BUILD_INFO_FILE]: JSON.stringify({ commit: COMMIT }), '.git/HEAD': `${OTHER}\n` });
    expect(readBuildInfo(built).commit).toBe(COMMIT);
    expect(readBuildInfo(release({})).commit).toBeNull();
    expect(readBuildInfo(release({ [BUILD_INFO_FILE]: '{ "commit": "not a commit" }' })).commit).toBeNull();
    expect(readBuildInfo(root).version).toBe(version);
  });
});
