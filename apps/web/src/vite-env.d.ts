/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** The commit this front end was built from (vite.config.ts). */
declare const __VERS_COMMIT__: string;
