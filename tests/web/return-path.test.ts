import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../web/src/session/RequireAuth';

describe('the path to come back to after logging in', () => {
  it.each(['/account', '/plus?checkout=success', '/profile#verse', '/@user123ab'])('keeps %s', (path) => {
    expect(safeReturnPath(path, '/')).toBe(path);
  });

  it.each([
    ['another host', '//evil.example/x'],
    ['a backslash the browser reads as a slash', '/\\evil.example'],
    ['a tab the browser drops', '/\t/evil.example'],
    ['a newline the browser drops', '/\n/evil.example'],
    ['dot segments that leave a path like a host', '/..//evil.example'],
    ['an absolute address', 'https://evil.example/'],
    ['a script', 'javascript:alert(1)'],
    ['nothing', ''],
  ])('refuses %s', (_what, path) => {
    expect(safeReturnPath(path, '/')).toBe('/');
  });

  it('falls back when there is no path', () => {
    expect(safeReturnPath(null, '/profile')).toBe('/profile');
  });
});
