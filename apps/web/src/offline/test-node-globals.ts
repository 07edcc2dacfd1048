/**
 * For tests in the node environment only: the two browser globals `app/session.ts` touches when it is imported
 * (local storage, and `window` for its storage listener). Import this before anything that imports the session.
 */
const globals = globalThis as unknown as Record<string, unknown>;

if (globals.localStorage === undefined) {
  const items = new Map<string, string>();
  globals.localStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (index: number) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

const windowStubbed = globals.window === undefined;
if (windowStubbed) globals.window = { addEventListener: () => undefined, removeEventListener: () => undefined };

/**
 * Removes the `window` stub once the session module has registered its listener: PGlite (the test server's
 * database) takes any `window` for a browser and would load itself the browser's way.
 */
export function removeWindowStub(): void {
  if (windowStubbed) delete globals.window;
}
