import { preloadFirstScreen } from './app/first-screen.ts';
import { initI18n } from './i18n/index.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');

// Signed in, the first screen's chunks (and the picture list's first read) load while the catalogue does.
preloadFirstScreen(location.pathname);
// The app itself (React's renderer, MUI, the router, the login screen) is a module of its own, evaluated in a task of
// its own while the catalogue loads: in one with this module's, its evaluation was one task of ~250 ms on a phone at
// 4x CPU slowdown, input blocked throughout (issue 19, Lighthouse's total blocking time). index.html asks for its
// files with this module's (vite.config.ts, preloadStartChunk), so nothing waits an extra round trip.
const [{ startApp }] = await Promise.all([import('./app/start.tsx'), initI18n()]);
startApp(root);
