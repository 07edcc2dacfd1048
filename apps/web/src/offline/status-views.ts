/**
 * The sync status views of the layout, one chunk: the "you are offline" banner is there whenever the indicator is.
 * Loaded apart, a network lost right after sign-in could leave the banner's chunk unloaded and unloadable, and the
 * user without the banner until a reload (a CI run of e2e/tests/offline.test.ts).
 */
export { OfflineBanner } from './OfflineBanner.tsx';
export { SyncIndicator } from './SyncIndicator.tsx';
export { SyncTime } from './SyncTime.tsx';
