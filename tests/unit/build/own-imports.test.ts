// The built server resolves its own modules' relative imports itself (server/src/vendor-bundles.ts),
// without Node's checks of each file: only those, nothing a package or another folder imports.
import { describe, expect, it } from 'vitest';
import { ownRelative } from '../../../server/src/vendor-bundles.js';

const own = new URL('../../../server/src/', import.meta.url).href;

describe('the resolution of the build’s own imports', () => {
  it('answers a relative `.js` import between its modules with the file it names', () => {
    expect(ownRelative('./config.js', `${own}main.js`)).toBe(`${own}config.js`);
    expect(ownRelative('../graphql/errors.js', `${own}app/app.js`)).toBe(`${own}graphql/errors.js`);
  });

  it('leaves packages, files outside the build, other kinds of files and other importers to Node', () => {
    expect(ownRelative('typeorm', `${own}main.js`)).toBeUndefined();
    expect(ownRelative('node:fs', `${own}main.js`)).toBeUndefined();
    expect(ownRelative('../../web/dist/x.js', `${own}app/app.js`)).toBeUndefined();
    expect(ownRelative('./typeorm.cjs', `${own}vendor/typeorm.mjs`)).toBeUndefined();
    expect(ownRelative('./data.json', `${own}main.js`)).toBeUndefined();
    expect(ownRelative('./index.js', 'file:///elsewhere/node_modules/pkg/main.js')).toBeUndefined();
    expect(ownRelative('./config.js', undefined)).toBeUndefined();
  });
});
