import { useEffect, useRef } from 'react';

/**
 * Asks the server again while the screen is open: when the window gets the focus back or the tab becomes visible, and
 * every `intervalMs` while it is visible. The holder's screens read the server directly (nothing of theirs is kept on
 * the device), so this is how new sign-offs and documents of the keeper's wagons appear without a reload.
 */
export function useRefresh(refresh: () => void, intervalMs: number): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    const timer = setInterval(again, intervalMs);
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', again);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', again);
    };
  }, [intervalMs]);
}
