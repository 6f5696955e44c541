// What the tests of links and of their visits share: the app serving member pages, and adding a link.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Env } from '../../server/src/config.js';
import type { TestApp } from './app.js';
import { startTestApp } from './app.js';
import type { SignedUpMember } from './members.js';

export const LINK_FIELDS = 'id title url icon hidden';
export const ADD_LINK = `mutation ($input: LinkInput!) { addLink(input: $input) { ${LINK_FIELDS} } }`;

export interface Link {
  id: string;
  title: string;
  url: string;
  icon: string;
  hidden: boolean;
}

/**
 * The app serving member pages, behind a proxy on loopback so that a test can be visitors at
 * several addresses. Pages are counted where the server sends them; the web app's own index.html
 * stands in for a build.
 */
export async function startPagesApp(env: Env = {}): Promise<TestApp> {
  const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
  copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));
  mkdirSync(path.join(distDir, 'assets'));
  const api = await startTestApp({
    AUTH_RATE_LIMIT_OTP: '1000',
    WEB_DIST_DIR: distDir,
    TRUST_PROXY: 'loopback',
    ...env,
  });
  return {
    ...api,
    close: async () => {
      await api.close();
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}

/** Adds a link to the member's page; the answer must be the link. */
export async function addLink(api: TestApp, member: SignedUpMember, input: Record<string, unknown>): Promise<Link> {
  const response = await api.graphql<{ addLink: Link }>(ADD_LINK, { input }, { token: member.session.accessToken });
  expect(response.errors).toBeUndefined();
  const link = response.data?.addLink;
  if (!link) throw new Error('addLink answered no link');
  return link;
}
