import { useSyncExternalStore } from 'react';

/** What the browser offers around the app itself: the cached shell, installation, durable storage. */
export interface AppShellState {
  /** A newer service worker (a new front end) is installed and waits for the user to refresh. */
  waiting: boolean;
  /** The browser offers to install VERS as an app (its `beforeinstallprompt` came). */
  installable: boolean;
  /** Whether the browser keeps this site's data under storage pressure; null where it cannot tell. */
  persisted: boolean | null;
}

/** The install prompt event, which TypeScript's DOM types do not describe. */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let state: AppShellState = { waiting: false, installable: false, persisted: null };
const listeners = new Set<() => void>();
function update(patch: Partial<AppShellState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAppShell(): AppShellState {
  return useSyncExternalStore(subscribe, () => state);
}

let updateServiceWorker: ((reloadPage?: boolean) => Promise<void>) | undefined;
let registration: ServiceWorkerRegistration | undefined;
let installPrompt: InstallPromptEvent | null = null;
let started = false;

/**
 * Registers the service worker of the production build (vite-plugin-pwa): from the second visit on, the app
 * loads without a network. Its code is a chunk of its own, so the login screen does not wait for it.
 */
export async function startServiceWorker(): Promise<void> {
  // Once per page: the sign-in screen starts it, and so does the first exchange after signing in.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || started) return;
  started = true;
  const { registerSW } = await import('virtual:pwa-register');
  updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh: () => update({ waiting: true }),
    onRegisteredSW: (_url, found) => {
      registration = found;
    },
    onRegisterError: (error: unknown) => console.warn('service worker not registered', error),
  });
}

/** /COMMIT names a newer front end: fetch its service worker now rather than at the browser's next check. */
export function checkForNewServiceWorker(): void {
  void registration?.update().catch(() => undefined);
}

/** The user agreed to refresh: the waiting service worker takes over and the page reloads with the new version. */
export async function applyNewVersion(): Promise<void> {
  if (state.waiting && updateServiceWorker) await updateServiceWorker(true);
  else window.location.reload();
}

window.addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault(); // shown from the profile page instead of the browser's own mini bar
  installPrompt = event as InstallPromptEvent;
  update({ installable: true });
});
window.addEventListener('appinstalled', () => {
  installPrompt = null;
  update({ installable: false });
});

/** Shows the browser's install dialog; true when the user installed VERS. */
export async function installApp(): Promise<boolean> {
  const prompt = installPrompt;
  if (!prompt) return false;
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  installPrompt = null;
  update({ installable: false });
  return outcome === 'accepted';
}

/**
 * Asks the browser to keep this site's data even when the disk fills up: unsent changes live only here until
 * they reach the server. Browsers decide by their own rules (installed app, bookmarks, use); the answer is shown
 * on the profile page.
 */
export async function requestPersistentStorage(): Promise<boolean | null> {
  const storage = navigator.storage as StorageManager | undefined;
  if (!storage?.persist || !storage.persisted) {
    update({ persisted: null });
    return null;
  }
  try {
    const persisted = (await storage.persisted()) || (await storage.persist());
    update({ persisted });
    return persisted;
  } catch {
    update({ persisted: null });
    return null;
  }
}
