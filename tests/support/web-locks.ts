// Web Locks as browsers offer them (happy-dom has none): a lock is exclusive, granted in the order
// it was asked for, and held until the callback's promise settles.

/** Installs `navigator.locks`; returns the function that removes them again. */
export function installWebLocks(): () => void {
  const held = new Map<string, Promise<unknown>>();
  const locks = {
    request<T>(name: string, callback: (lock: { name: string; mode: 'exclusive' }) => Promise<T>): Promise<T> {
      const run = (held.get(name) ?? Promise.resolve()).then(() => callback({ name, mode: 'exclusive' }));
      held.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
  Object.defineProperty(navigator, 'locks', { configurable: true, value: locks });
  return () => {
    Reflect.deleteProperty(navigator, 'locks');
  };
}
