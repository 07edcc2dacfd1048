import {
  BACKEND_VERSION_INTERVAL_MS,
  FRONTEND_VERSION_INTERVAL_MS,
  STORAGE_KEYS,
  versionResponseSchema,
  togglesResponseSchema,
} from '@vers/domain';
import { useEffect, useSyncExternalStore } from 'react';
import { call } from './api.ts';

/** The commit this front end was built from. */
export const FRONTEND_VERSION: string = __VERS_COMMIT__;

interface Versions {
  /** The front end the server offers now (/COMMIT); differs from FRONTEND_VERSION after a deployment. */
  currentFrontend: string | null;
  backend: string | null;
}

let state: Versions = { currentFrontend: null, backend: localStorage.getItem(STORAGE_KEYS.backendVersion) };
const listeners = new Set<() => void>();
function update(patch: Partial<Versions>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useVersions(): Versions {
  return useSyncExternalStore(subscribe, () => state);
}

async function fetchCurrentFrontend() {
  try {
    const response = await fetch(`/COMMIT?t=${Date.now()}`, { cache: 'no-store' });
    if (response.ok) update({ currentFrontend: (await response.text()).trim() });
  } catch {
    // Offline: the last known value stays.
  }
}

async function fetchBackend() {
  try {
    const { gitSha } = await call('version/current', versionResponseSchema, { handles: [0, 401, 403, 502, 503, 504] });
    localStorage.setItem(STORAGE_KEYS.backendVersion, gitSha);
    update({ backend: gitSha });
  } catch (error) {
    console.warn('back end version not fetched', error); // docs/requirements/administration.md#version-calls: only logged
  }
}

async function fetchToggles() {
  try {
    const toggles = await call('toggles', togglesResponseSchema, { handles: [0, 401, 403, 502, 503, 504] });
    localStorage.setItem(STORAGE_KEYS.toggles, JSON.stringify(toggles));
  } catch (error) {
    console.warn('feature toggles not fetched', error);
  }
}

/** Front-end version every 20 s; back-end version and toggles at start (once `started`) and every hour. */
export function useVersionPolling(started = true) {
  useEffect(() => {
    if (!started) return;
    void fetchCurrentFrontend();
    void fetchBackend();
    void fetchToggles();
    const frontend = setInterval(() => void fetchCurrentFrontend(), FRONTEND_VERSION_INTERVAL_MS);
    const backend = setInterval(() => {
      void fetchBackend();
      void fetchToggles();
    }, BACKEND_VERSION_INTERVAL_MS);
    return () => {
      clearInterval(frontend);
      clearInterval(backend);
    };
  }, [started]);
}
