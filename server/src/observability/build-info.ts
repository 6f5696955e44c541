import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config.js';

/** Which release runs: shown by `/readyz`, the start log line and `lampstand_build_info`. */
export interface BuildInfo {
  /** The root package.json's version. */
  version: string;
  /** The git commit the build was made from, when known (`build-info.json`, else the checkout's `.git`). */
  commit: string | null;
  node: string;
}

/** Written by a build that has no `.git` beside it (an image): `{ "commit": "<sha>" }` at the repository root. */
export const BUILD_INFO_FILE = 'build-info.json';

const COMMIT = /^[0-9a-f]{40}$/;

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function fromBuildFile(root: string): string | null {
  const text = readText(path.join(root, BUILD_INFO_FILE));
  if (text === null) return null;
  try {
    const { commit } = JSON.parse(text) as { commit?: unknown };
    return typeof commit === 'string' && COMMIT.test(commit.trim()) ? commit.trim() : null;
  } catch {
    return null;
  }
}

/**
 * The checkout's commit, read from `.git` itself (no `git` process at start): HEAD, the ref it
 * names (loose or packed), and a worktree's `gitdir:` pointer with its `commondir`.
 */
function fromGit(root: string): string | null {
  let gitDir = path.join(root, '.git');
  const pointer = readText(gitDir);
  if (pointer?.startsWith('gitdir:')) gitDir = path.resolve(root, pointer.slice('gitdir:'.length).trim());
  const head = readText(path.join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return null;
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (\S+)$/.exec(head)?.[1];
  if (ref === undefined) return null;
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  const dirs = [gitDir, ...(common ? [path.resolve(gitDir, common)] : [])];
  for (const dir of dirs) {
    const loose = readText(path.join(dir, ref))?.trim();
    if (loose !== undefined && COMMIT.test(loose)) return loose;
    const packed = readText(path.join(dir, 'packed-refs'))
      ?.split('\n')
      .find((line) => line.endsWith(` ${ref}`))
      ?.split(' ')[0];
    if (packed !== undefined && COMMIT.test(packed)) return packed;
  }
  return null;
}

/** Reads the build's version and commit once (a few small files), from `root` (the repository's by default). */
export function readBuildInfo(root: string = projectRoot): BuildInfo {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, commit: fromBuildFile(root) ?? fromGit(root), node: process.versions.node };
}
