import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { startServiceWorker } from './app/app-shell.ts';
import { initI18n } from './i18n/index.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');

await initI18n();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void startServiceWorker();
