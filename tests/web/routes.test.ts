import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_PAGES } from '../../server/src/http/pages.js';

const routesSource = readFileSync(path.resolve(import.meta.dirname, '../../web/src/app/routes.tsx'), 'utf8');

describe("the server's list of the app's pages", () => {
  it('names every page the app routes, and nothing else', () => {
    const routed = [...routesSource.matchAll(/<Route path="([a-z-]+)"/g)].map((match) => `/${match[1] ?? ''}`);
    const hasIndex = routesSource.includes('<Route index ');
    expect(routed.length).toBeGreaterThan(5);
    expect([...(hasIndex ? ['/'] : []), ...routed].sort()).toEqual([...APP_PAGES].sort());
  });
});
