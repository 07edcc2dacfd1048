import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { startServiceWorker } from './app-shell.ts';
import { sessionStore } from './session.ts';

/** Renders the app into `root` (main.tsx loads this module beside the catalogue). */
export function startApp(root: HTMLElement): void {
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
}
