import IconButton from '@mui/material/IconButton';
import { createSvgIcon } from '@mui/material/SvgIcon';
import { Suspense, lazy, useEffect, useState } from 'react';
import type { ScanDialogProps } from './ScanDialog.tsx';
import { useTranslation } from 'react-i18next';

/** The aim frame's four corners and the reading line: a few bytes, instead of a larger icon of the library. */
const ScanIcon = createSvgIcon(
  <path d="M3 3h6v2H5v4H3zm12 0h6v6h-2V5h-4zM3 15h2v4h4v2H3zm16 0h2v6h-6v-2h4zM6 11h12v2H6z" />,
  'Scan',
);

/**
 * The dialog, its texts and the reading engine load only when a button is pressed. Every screen with a
 * vehicle-number field carries this file (the route budgets, bench/budgets.json), so it goes through a loader module
 * that holds the list of the dialog's chunks which Vite puts beside an import(): here it would be 30 file names.
 */
const loadDialog = () =>
  import('./load-scan-dialog.ts')
    .then((loader) => loader.loadScanDialog())
    .catch(() => {
      // Not loaded (offline before the app was cached, a new version deployed): this press closes at once, the field
      // keeps the focus, and the next press tries again, instead of the screen's error page.
      ScanDialog = lazy(loadDialog);
      return { default: ClosesAtOnce };
    });
let ScanDialog = lazy(loadDialog);

function ClosesAtOnce({ anchor, onClose }: ScanDialogProps) {
  useEffect(() => {
    anchor.parentElement?.querySelector('input')?.focus();
    onClose();
  });
  return null;
}

export interface ScanButtonProps {
  /** The field's label: the button's name and the dialog's title. */
  field: string;
  /**
   * A number read and confirmed (12 digits, check digit right). The screen passes it through the field's own change
   * and leave rules, as if typed.
   */
  onNumber: (digits: string) => void;
  testId: string;
}

/**
 * The camera button at the end of a vehicle-number field (issue 24). Closed, the dialog hands the focus back to the
 * field, which stays usable whatever the camera did.
 */
export function ScanButton(props: ScanButtonProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        edge="end"
        aria-label={t('common.scan', { field: props.field })}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid={props.testId}
      >
        <ScanIcon />
      </IconButton>
      {anchor && (
        <Suspense>
          <ScanDialog {...props} anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
