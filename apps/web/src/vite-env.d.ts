/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** The commit this front end was built from (vite.config.ts). */
declare const __VERS_COMMIT__: string;

/** Where the build serves the camera scanner's run-time files (vite.config.ts, scanAssets). */
declare const __VERS_SCAN_ASSETS__: { workerPath: string; corePath: string; langPath: string; zxingWasm: string };
