import type { ComponentType } from 'react';
import type { ScanDialogProps } from './ScanDialog.tsx';

/**
 * The scan dialog's chunk. A module of its own, without static imports, between the button and the dialog: the list
 * of the dialog's chunks, which Vite puts beside each import() to preload them, stays here instead of in the button
 * that every vehicle-number screen carries.
 */
export async function loadScanDialog(): Promise<{ default: ComponentType<ScanDialogProps> }> {
  return { default: (await import('./ScanDialog.tsx')).ScanDialog };
}
