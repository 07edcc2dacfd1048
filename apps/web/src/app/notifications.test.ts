import { beforeEach, describe, expect, it } from 'vitest';
import { notifications } from './notifications.ts';

function clear() {
  for (let n = notifications.current(); n; n = notifications.current()) notifications.dismiss(n.id);
}

describe('notifications', () => {
  beforeEach(clear);

  it('replaces a success or info message by newer news at once', () => {
    notifications.show('a.saved', 'success', { address: 'x@example.org' });
    notifications.show('a.saved', 'success', { address: 'y@example.org' });
    expect(notifications.current()?.values).toEqual({ address: 'y@example.org' });
    notifications.show('b.loaded', 'info');
    expect(notifications.current()?.messageKey).toBe('b.loaded');
  });

  it('keeps errors until they were seen, in order', () => {
    notifications.show('e.one', 'error');
    notifications.show('s.ok', 'success');
    notifications.show('e.two', 'error');
    expect(notifications.current()?.messageKey).toBe('e.one');
    notifications.dismiss(notifications.current()!.id);
    expect(notifications.current()?.messageKey).toBe('e.two');
  });

  it('shows the same message twice in a row only once', () => {
    notifications.show('errors.noConnection', 'error');
    notifications.show('errors.noConnection', 'error');
    notifications.dismiss(notifications.current()!.id);
    expect(notifications.current()).toBeUndefined();
  });
});
