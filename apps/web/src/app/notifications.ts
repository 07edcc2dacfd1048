import { useSyncExternalStore } from 'react';

export type Severity = 'success' | 'info' | 'warning' | 'error';

export interface Notification {
  id: number;
  /** Catalogue key of the message. */
  messageKey: string;
  values?: Record<string, string>;
  severity: Severity;
}

/**
 * Room kept free below the page's content while a snackbar shows (px, by MUI breakpoint): the snackbar sits 8 px
 * (phones) or 24 px above the bottom and is one or two lines of an Alert high, so a form's last buttons can always be
 * scrolled out from under it (issue 20: never over controls).
 */
export const SNACKBAR_CLEARANCE = { xs: 112, sm: 96 } as const;

type Listener = () => void;
const listeners = new Set<Listener>();
let queue: Notification[] = [];
let nextId = 1;

/**
 * Snackbar messages (5000 ms each, docs/requirements/administration.md#snackbars); warnings and errors are shown one
 * after another.
 */
export const notifications = {
  show(messageKey: string, severity: Severity = 'info', values?: Record<string, string>) {
    // The same message twice in a row (several failing calls at once) is shown once.
    const last = queue.at(-1);
    const same = last && last.messageKey === messageKey && last.severity === severity;
    if (same && JSON.stringify(last.values ?? {}) === JSON.stringify(values ?? {})) return;
    // Newer news replaces success and info messages at once; warnings and errors wait until they were seen.
    const rest = queue.filter((n) => n.severity === 'warning' || n.severity === 'error');
    queue = [...rest, { id: nextId++, messageKey, severity, ...(values ? { values } : {}) }];
    for (const listener of listeners) listener();
  },
  dismiss(id: number) {
    queue = queue.filter((n) => n.id !== id);
    for (const listener of listeners) listener();
  },
  current: (): Notification | undefined => queue[0],
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useCurrentNotification(): Notification | undefined {
  return useSyncExternalStore(notifications.subscribe, notifications.current);
}
