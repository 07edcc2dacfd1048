import type { Language } from '@vers/domain';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setApiNavigator } from './api.ts';
import { Notifier } from './Notifier.tsx';
import { FRONTEND_VERSION, useVersionPolling, useVersions } from './versions.ts';
import { isBrowserSupported } from './browser-support.ts';
import { refreshValueListsLater, useValueListProgress } from '../offline/value-list-progress.ts';
import { useSession } from './session.ts';
import { useStartedIdle } from './idle.ts';
import { loadChunk } from './chunks.ts';
import {
  applyNewVersion,
  checkForNewServiceWorker,
  requestPersistentStorage,
  startServiceWorker,
  useAppShell,
} from './app-shell.ts';

/**
 * Whether this browser lets VERS keep data (IndexedDB opens); false in a private window or with storage blocked.
 * A bare probe, not the app's database: the login screen does not load the database code for it.
 */
function useLocalDatabaseOpens(): boolean {
  const [opens, setOpens] = useState(true);
  useEffect(() => {
    const fail = (error: unknown) => {
      console.error('local database not opened', error);
      setOpens(false);
    };
    try {
      const probe = indexedDB.open('vers-probe');
      probe.onsuccess = () => probe.result.close();
      probe.onerror = () => fail(probe.error);
    } catch (error) {
      fail(error);
    }
  }, []);
  return opens;
}

/**
 * What runs beside every page: navigation for the API's global reactions, version polling, messages.
 * `openOrderAtStart`: the order in the editor at the address the page started at (router.tsx), or null.
 */
export function AppEffects({ openOrderAtStart }: { openOrderAtStart: string | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // The background work waits for the first idle moment, so that the first screen renders before it.
  const started = useStartedIdle();
  const signedIn = useSession() !== null;
  const working = signedIn && started;
  const language = i18n.resolvedLanguage as Language | undefined;
  const valueListProgress = useValueListProgress();
  const { currentFrontend } = useVersions();
  const { waiting } = useAppShell();
  const databaseOpens = useLocalDatabaseOpens();
  useEffect(() => setApiNavigator((path) => void navigate(path)), [navigate]);
  useVersionPolling(started);
  // The 10-second exchange with the server runs while signed in (its code is a chunk of its own); its first tick
  // comes once the first screen has rendered.
  useEffect(() => {
    if (!working) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    // Its code too waits for the network if it was lost before it loaded (app/chunks.ts): without the scheduler,
    // nothing stored on the device would be sent until a reload.
    void loadChunk(() => import('../offline/scheduler.ts')).then(({ syncScheduler }) => {
      if (cancelled) return;
      syncScheduler.start();
      stop = () => syncScheduler.stop();
      // The service worker's install (and each new version's) compiles and caches every chunk of the app, ~240
      // files: a core for seconds on a slow machine. Signed in, it starts once the first loads are done (the first
      // pull of the order the page started at among them), so that it does not compete with them (issue 19: the
      // first pull of 10,000 activities took ~1.5x longer beside an install). The sign-in screen starts it at once
      // (main.tsx).
      void syncScheduler.firstLoadsEnded(openOrderAtStart).then(startServiceWorker);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [working, openOrderAtStart]);
  // Unsent work lives only on this device: ask the browser not to clear it under storage pressure.
  useEffect(() => {
    if (working) void requestPersistentStorage();
  }, [working]);
  const newFrontend = currentFrontend !== null && currentFrontend !== FRONTEND_VERSION;
  useEffect(() => {
    if (newFrontend) checkForNewServiceWorker();
  }, [newFrontend]);
  // Value lists: changes since the last load at start and for each language chosen (sign-in loads in full).
  useEffect(() => {
    if (working && language) refreshValueListsLater(language, 'changes');
  }, [working, language]);
  const outdated = newFrontend || waiting;
  return (
    <>
      {valueListProgress !== null && (
        <LinearProgress
          variant="determinate"
          value={valueListProgress}
          aria-label={t('defaultOptions.loading')}
          data-testid="value-list-progress"
          sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.appBar + 1 }}
        />
      )}
      {!isBrowserSupported() && (
        <Alert severity="warning" square data-testid="browser-too-old">
          {t('errors.browserTooOld')}
        </Alert>
      )}
      {!databaseOpens && (
        <Alert severity="error" square data-testid="local-database-failed">
          {t('errors.localDatabase')}
        </Alert>
      )}
      {outdated && (
        <Alert
          severity="info"
          square
          data-testid="new-version"
          sx={{ position: 'fixed', bottom: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.snackbar + 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void applyNewVersion()}>
              {t('version.refresh')}
            </Button>
          }
        >
          {t('version.newVersion')}
        </Alert>
      )}
      <Notifier />
    </>
  );
}
