import type { OrderType } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportDeps, type ImportState, type PickedFile, importTemplate, stateOf } from './xml-import.ts';

/** Big targets for gloved hands. */
const TOUCH = 56;

/**
 * The running imports of a screen, one per slot (the vehicle, each wheelset row). A new file for a slot gives up
 * the one still being checked there; `cancel` gives up a slot whose row went; leaving the screen gives up all.
 */
export function useXmlImports(deps?: ImportDeps) {
  const running = useRef(new Map<string, AbortController>());
  useEffect(() => {
    const map = running.current;
    return () => {
      for (const controller of map.values()) controller.abort();
      map.clear();
    };
  }, []);

  const cancel = useCallback((slot: string) => {
    running.current.get(slot)?.abort();
    running.current.delete(slot);
  }, []);

  /** Imports `file` into `slot`; `report` gets the spinner state at once and the outcome when it is known. */
  const start = useCallback(
    async (slot: string, file: PickedFile, orderType: OrderType, report: (state: ImportState) => void) => {
      cancel(slot);
      const controller = new AbortController();
      running.current.set(slot, controller);
      report({ kind: 'busy', filename: file.name });
      try {
        const outcome = await importTemplate(file, orderType, controller.signal, deps);
        report(stateOf(outcome, file.name));
      } catch {
        // Given up (another file, the row or the screen went): nothing to show.
      } finally {
        if (running.current.get(slot) === controller) running.current.delete(slot);
      }
    },
    [cancel, deps],
  );
  return { start, cancel };
}

/** Out of sight but read by screen readers (the usual clip pattern; display: none would hide it from them too). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * The "Import XML" file picker and, beside it in a slot of fixed width, the spinner, the green check or the red
 * alert. The input is emptied as soon as a file is taken, so that the same file can be picked again.
 */
export function XmlImportButton(props: {
  state: ImportState;
  onPick: (file: File) => void;
  testId: string;
  label: string;
}) {
  const { t } = useTranslation();
  const { state } = props;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexShrink: 0 }}>
      <Button
        component="label"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        // The visible text is the name (a voice user says what they see); which template it takes is the
        // description, also shown as the tooltip.
        title={props.label}
        sx={{
          minHeight: TOUCH,
          minWidth: TOUCH,
          whiteSpace: 'nowrap',
          '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 }, ml: { xs: 0, sm: -0.5 } },
        }}
      >
        {/* On a phone the icon alone: the number field needs the width. The text stays for screen readers. */}
        <Box component="span" sx={(theme) => ({ [theme.breakpoints.down('sm')]: VISUALLY_HIDDEN })}>
          {t('orders.import.button')}
        </Box>
        <input
          hidden
          type="file"
          // text/xml too: Android and some desktops name .xml files so.
          accept="application/xml,text/xml,.xml"
          data-testid={props.testId}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) props.onPick(file);
          }}
        />
      </Button>
      <Box
        data-testid={`${props.testId}-state`}
        data-state={state.kind}
        aria-live="polite"
        sx={{ width: 28, height: 28, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        {state.kind === 'busy' && <CircularProgress size={24} aria-label={t('orders.import.checking')} />}
        {state.kind === 'valid' && (
          <CheckCircleIcon color="success" titleAccess={`${t('orders.import.valid')}: ${state.filename}`} />
        )}
        {state.kind === 'invalid' && (
          <ErrorIcon color="error" titleAccess={`${t('orders.import.invalid')}: ${state.filename}`} />
        )}
      </Box>
    </Box>
  );
}

/** Why a file was refused, under the field it belongs to: the reason in the user's language and the server's detail. */
export function XmlImportMessage(props: { state: ImportState; testId: string }) {
  const { t } = useTranslation();
  const { state } = props;
  if (state.kind !== 'invalid') return null;
  return (
    <Typography
      variant="body2"
      color="error"
      role="alert"
      data-testid={`${props.testId}-message`}
      sx={{ overflowWrap: 'anywhere', mt: 0.5 }}
    >
      {[t(state.messageKeys), state.detail].filter(Boolean).join(': ')}
    </Typography>
  );
}
