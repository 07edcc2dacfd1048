/** The features VERS relies on: offline storage, the service worker's basis and modern JavaScript. */
export function isBrowserSupported(): boolean {
  return (
    typeof indexedDB !== 'undefined' &&
    typeof structuredClone === 'function' &&
    typeof Array.prototype.at === 'function' &&
    typeof crypto?.randomUUID === 'function'
  );
}
