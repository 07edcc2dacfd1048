import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { startServiceWorker } from './app/app-shell.ts';
import { sessionStore } from './app/session.ts';
import { initI18n } from './i18n/index.ts';
import { preloadFirstScreen } from './app/router.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');

// Signed in, the first screen's chunks (and the picture list's first read) load while the catalogue does.
preloadFirstScreen(location.pathname);
await initI18n();
// A transition: React renders the first screen in slices of a few milliseconds, yielding between them, instead of
// one task of ~200 ms of CPU (750 ms on a phone at 4x slowdown) that blocks input (issue 19, Lighthouse TBT).
const reactRoot = createRoot(root);
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
// Signed out, the service worker starts at once: its install runs while the user types. Signed in, it starts after
// the first data exchange (AppEffects).
if (sessionStore.get() === null) void startServiceWorker();
