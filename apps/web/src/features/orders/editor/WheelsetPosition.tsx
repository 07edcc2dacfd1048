import {
  type Language,
  type PositionHistoryEntry,
  type WheelsetDirection,
  WHEELSET_DIRECTIONS,
  formatDateTime,
  formatVehicleNumber,
  mountedWheelset,
  positionHistory,
  positionsAlsoMounting,
  SENT_STATES,
  validateVehicleNumber,
  type Values,
  type Write,
} from '@vers/domain';
import HistoryIcon from '@mui/icons-material/History';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import TurnIcon from '@mui/icons-material/ScreenRotationAlt';
import EjectIcon from '@mui/icons-material/Eject';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../../app/notifications.ts';
import type { EditContext } from '../../../offline/record-edit.ts';
import { syncScheduler } from '../../../offline/scheduler.ts';
import { versdb } from '../../../offline/versdb.ts';
import { type WheelsetSwapOutcome, swapWheelset } from '../../../offline/wheelset-swap.ts';
import { ScanButton } from '../../scan/ScanButton.tsx';
import { vehicleNumberMessageKey } from '../vehicle-number-message.ts';
import { IDLE, type ImportState } from '../xml-import.ts';
import { XmlImportButton, XmlImportMessage, useXmlImports } from '../XmlImportButton.tsx';
import { useAuthor } from './FieldHistory.tsx';

/** Big targets for gloved hands. */
const TOUCH = 56;

interface Props {
  orderId: string;
  /** The position (the sub-tab's entry, `3` of `wheelsets-3`). */
  position: number;
  values: Values;
  readOnly: boolean;
  online: boolean;
  /** The editor's write: the offline path records the swap's writes with it. */
  write: (writes: Write[], context: EditContext) => readonly { key: string }[];
}

/** The direction's text in the user's language. */
function useDirectionText() {
  const { t } = useTranslation();
  return (direction: WheelsetDirection | null) =>
    direction ? t(`catalogue.entryValue.Direction.${direction}`) : t('orders.editor.wheelset.noDirection');
}

/**
 * The wheelset swap of a wagon's position (docs/requirements/orders.md#wheelset-swap): which wheelset is mounted and
 * which way, and the actions to mount another (typed or from its XML import), to turn and to dismount it, with the
 * position's history. Online each is the server's call; offline the same changes wait on the device.
 */
export function WheelsetPosition(props: Props) {
  const { t } = useTranslation();
  const directionText = useDirectionText();
  const mounted = mountedWheelset(props.values, props.position);
  const [mounting, setMounting] = useState(false);
  const [dismounting, setDismounting] = useState(false);
  const [history, setHistory] = useState(false);
  const [busy, setBusy] = useState(false);

  const run = async (request: Parameters<typeof swapWheelset>[0]['request']): Promise<WheelsetSwapOutcome> => {
    setBusy(true);
    try {
      const outcome = await swapWheelset({
        orderId: props.orderId,
        request,
        values: props.values,
        record: props.write,
        online: props.online,
      });
      if (outcome.kind === 'refused') {
        notifications.show(`errors.${outcome.code === 'NO_CONNECTION' ? 'noConnection' : outcome.code}`, 'error');
      } else {
        notifications.show(
          outcome.kind === 'updated' ? 'orders.editor.wheelset.done' : 'orders.editor.wheelset.savedLocally',
          outcome.kind === 'updated' ? 'success' : 'info',
        );
        // The server's changes come to this device with the next exchange: at once.
        if (outcome.kind === 'updated') await syncScheduler.exchangeNow();
      }
      return outcome;
    } finally {
      setBusy(false);
    }
  };

  const number = mounted.wheelset ? formatVehicleNumber(mounted.wheelset.number) : null;
  // Two devices may each have mounted this wheelset offline at another position: say so until one is changed.
  const alsoAt = mounted.wheelset ? positionsAlsoMounting(props.values, mounted.wheelset.number, props.position) : [];
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="wheelset-position">
      <Box>
        <Typography variant="h6" component="h2">
          {t('orders.editor.wheelset.title', { position: props.position })}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
          <Typography
            variant="h5"
            component="p"
            data-testid="wheelset-mounted"
            data-number={mounted.wheelset?.number ?? ''}
            sx={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
          >
            {number ?? t('orders.editor.wheelset.none')}
          </Typography>
          {mounted.wheelset && (
            <Chip
              label={directionText(mounted.direction)}
              color={mounted.direction === 'TURNED' ? 'secondary' : 'default'}
              data-testid="wheelset-direction"
              data-direction={mounted.direction ?? ''}
            />
          )}
        </Box>
        {alsoAt.length > 0 && (
          <Alert
            severity="warning"
            sx={{ mt: 1 }}
            data-testid="wheelset-also-mounted"
            data-positions={alsoAt.join(',')}
          >
            {t('orders.editor.wheelset.alsoMounted', { positions: alsoAt.join(', ') })}
          </Alert>
        )}
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          // On a phone the buttons share the lines evenly; wider, each keeps its own width.
          '& .MuiButton-root': { minHeight: TOUCH, whiteSpace: 'nowrap', flex: { xs: '1 1 auto', md: '0 0 auto' } },
        }}
      >
        {!props.readOnly && (
          <Button
            variant="contained"
            startIcon={<SwapIcon />}
            onClick={() => setMounting(true)}
            disabled={busy}
            data-testid="wheelset-mount"
          >
            {t(mounted.wheelset ? 'orders.editor.wheelset.swap' : 'orders.editor.wheelset.mount')}
          </Button>
        )}
        {!props.readOnly && mounted.wheelset && (
          <Button
            variant="outlined"
            startIcon={<TurnIcon />}
            disabled={busy}
            data-testid="wheelset-turn"
            onClick={() =>
              void run({ position: props.position, direction: mounted.direction === 'TURNED' ? 'NORMAL' : 'TURNED' })
            }
          >
            {t('orders.editor.wheelset.turn')}
          </Button>
        )}
        {!props.readOnly && mounted.wheelset && (
          <Button
            variant="outlined"
            color="error"
            startIcon={<EjectIcon />}
            disabled={busy}
            onClick={() => setDismounting(true)}
            data-testid="wheelset-dismount"
          >
            {t('orders.editor.wheelset.dismount')}
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<HistoryIcon />}
          onClick={() => setHistory(true)}
          data-testid="wheelset-history"
        >
          {t('orders.editor.wheelset.history')}
        </Button>
      </Box>
      {mounting && (
        <MountDialog
          position={props.position}
          online={props.online}
          busy={busy}
          onCancel={() => setMounting(false)}
          onMount={async (request) => {
            const outcome = await run({ position: props.position, ...request });
            if (outcome.kind !== 'refused') setMounting(false);
            return outcome;
          }}
        />
      )}
      <ConfirmDialog
        open={dismounting}
        danger
        busy={busy}
        title={t('orders.editor.wheelset.dismountTitle')}
        message={t('orders.editor.wheelset.dismountQuestion', { number: number ?? '', position: props.position })}
        confirmLabel={t('orders.editor.wheelset.dismount')}
        onCancel={() => setDismounting(false)}
        onConfirm={() => {
          setDismounting(false);
          void run({ position: props.position, wheelset: null });
        }}
      />
      {history && (
        <PositionHistoryDialog orderId={props.orderId} position={props.position} onClose={() => setHistory(false)} />
      )}
    </Paper>
  );
}

/**
 * Mounting a wheelset: its number, checked with the vehicle number rule when the field is left and then written
 * 2-2-4-3-check, or its XML import (online only), and the direction.
 */
function MountDialog(props: {
  position: number;
  online: boolean;
  busy: boolean;
  onCancel: () => void;
  onMount: (request: {
    wheelset: { number: string; assetId: string | null };
    direction: WheelsetDirection;
  }) => Promise<WheelsetSwapOutcome>;
}) {
  const { t } = useTranslation();
  const directionText = useDirectionText();
  const [number, setNumber] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [direction, setDirection] = useState<WheelsetDirection>('NORMAL');
  const [template, setTemplate] = useState<ImportState>(IDLE);
  const imports = useXmlImports();

  /** Checked as the user leaves the field: a correct number is written in its display form. */
  const check = (raw: string): string | null => {
    const result = validateVehicleNumber(raw);
    if (!result.ok || result.digits === '') {
      setMessage(result.ok ? 'validation.required' : vehicleNumberMessageKey(raw));
      return null;
    }
    setMessage(null);
    setNumber(formatVehicleNumber(result.digits));
    return result.digits;
  };
  const pick = (file: File) => {
    void imports.start('wheelset', file, 'WHEELSET', (state) => {
      setTemplate(state);
      if (state.kind === 'valid') {
        setNumber(formatVehicleNumber(state.number));
        setMessage(null);
      }
    });
  };
  const submit = async () => {
    const digits = check(number);
    if (!digits) return;
    const assetId = template.kind === 'valid' && template.number === digits ? template.assetId : null;
    const outcome = await props.onMount({ wheelset: { number: digits, assetId }, direction });
    if (outcome.kind === 'refused' && outcome.code === 'CHECK_NUMBER') setMessage('errors.CHECK_NUMBER');
    if (outcome.kind === 'refused' && outcome.code === 'WHEELSET_MOUNTED_ELSEWHERE') {
      setMessage('errors.WHEELSET_MOUNTED_ELSEWHERE');
    }
  };
  return (
    <Dialog open onClose={props.onCancel} fullWidth maxWidth="sm" data-testid="wheelset-mount-dialog">
      <DialogTitle>{t('orders.editor.wheelset.mountTitle', { position: props.position })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
            <TextField
              label={t('orders.editor.wheelset.number')}
              value={number}
              autoFocus
              onChange={(event) => {
                setNumber(event.target.value);
                if (template.kind !== 'idle') setTemplate(IDLE);
              }}
              onBlur={() => number.trim() !== '' && check(number)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') void submit();
              }}
              error={message !== null}
              helperText={message ? t(message) : t('orders.editor.wheelset.numberHint')}
              fullWidth
              slotProps={{
                htmlInput: {
                  'data-testid': 'wheelset-number',
                  inputMode: 'numeric',
                  autoComplete: 'off',
                  spellCheck: false,
                  maxLength: 40,
                },
                // A number read by the camera goes through the field's own rules, as if typed and left.
                input: {
                  endAdornment: (
                    <ScanButton
                      field={t('orders.editor.wheelset.number')}
                      testId="wheelset-mount-scan"
                      onNumber={(digits) => {
                        setNumber(digits);
                        if (template.kind !== 'idle') setTemplate(IDLE);
                        check(digits);
                      }}
                    />
                  ),
                },
              }}
              sx={{ flex: { xs: '1 1 100%', sm: '1 1 auto' } }}
            />
            {props.online && (
              <XmlImportButton
                state={template}
                onPick={pick}
                testId="wheelset-import"
                label={t('orders.editor.wheelset.import')}
              />
            )}
          </Box>
          <XmlImportMessage state={template} testId="wheelset-import" />
          {!props.online && <Alert severity="info">{t('orders.editor.wheelset.importOffline')}</Alert>}
          <Box>
            <Typography variant="subtitle2" component="p" id="wheelset-direction-label" sx={{ mb: 0.5 }}>
              {t('catalogue.field.wheelsetDirection')}
            </Typography>
            <ToggleButtonGroup
              exclusive
              fullWidth
              color="primary"
              value={direction}
              aria-labelledby="wheelset-direction-label"
              onChange={(_, next: WheelsetDirection | null) => next && setDirection(next)}
              sx={{ '& .MuiToggleButton-root': { minHeight: TOUCH } }}
            >
              {WHEELSET_DIRECTIONS.map((choice) => (
                <ToggleButton key={choice} value={choice} data-testid={`wheelset-direction-${choice}`}>
                  {directionText(choice)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ '& .MuiButton-root': { minHeight: TOUCH } }}>
        <Button onClick={props.onCancel} data-testid="wheelset-mount-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={props.busy || template.kind === 'busy'}
          data-testid="wheelset-mount-save"
        >
          {t('orders.editor.wheelset.mount')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** When a history entry held: "12.11.26 08:00 – 14.11.26 10:00", or "since …" for the current one. */
function useSpan() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return (entry: PositionHistoryEntry) =>
    entry.until
      ? t('orders.editor.wheelset.span', {
          from: formatDateTime(entry.from, language),
          until: formatDateTime(entry.until, language),
        })
      : t('orders.editor.wheelset.since', { from: formatDateTime(entry.from, language) });
}

/** The position's history from the device's activity log: offline too, and live while open. */
function PositionHistoryDialog(props: { orderId: string; position: number; onClose: () => void }) {
  const { t } = useTranslation();
  const author = useAuthor();
  const span = useSpan();
  const directionText = useDirectionText();
  const entries = useLiveQuery(
    async () =>
      positionHistory(await versdb.orderResults.where('orderId').equals(props.orderId).toArray(), props.position),
    [props.orderId, props.position],
  );
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid="wheelset-history-dialog">
      <DialogTitle>{t('orders.editor.wheelset.historyTitle', { position: props.position })}</DialogTitle>
      <DialogContent>
        {entries && entries.length === 0 && <Typography>{t('orders.editor.wheelset.historyEmpty')}</Typography>}
        {entries && entries.length > 0 && (
          <List dense disablePadding data-testid="wheelset-history-list">
            {[...entries].reverse().map((entry) => (
              <ListItem
                key={entry.activity.id}
                divider
                disableGutters
                data-testid="wheelset-history-entry"
                data-number={entry.wheelset?.number ?? ''}
                data-author={entry.activity.author ?? ''}
              >
                <ListItemText
                  primary={
                    <>
                      <strong>
                        {entry.wheelset
                          ? // A wheelset recorded before directions were (the order's creation) shows its number only.
                            [
                              formatVehicleNumber(entry.wheelset.number),
                              entry.direction && directionText(entry.direction),
                            ]
                              .filter(Boolean)
                              .join(' · ')
                          : t('orders.editor.wheelset.dismounted')}
                      </strong>
                      {entry.activity.sent === SENT_STATES.UNSENT && (
                        <Chip
                          size="small"
                          color="warning"
                          component="span"
                          sx={{ ml: 1 }}
                          label={t('orders.editor.history.unsent')}
                          data-testid="wheelset-history-unsent"
                        />
                      )}
                    </>
                  }
                  secondary={`${span(entry)} · ${author(entry.activity)}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} size="large" data-testid="wheelset-history-close">
          {t('orders.editor.history.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
