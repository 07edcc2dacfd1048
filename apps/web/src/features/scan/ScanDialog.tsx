import { formatVehicleNumber, validateVehicleNumber } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import ReplayIcon from '@mui/icons-material/RestartAlt';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanButtonProps } from './ScanButton.tsx';
import type { NumberScanner, ScanReading } from './types.ts';

/** Why no number is offered (yet): the engine's reasons, said in the status line. */
type Reason = Extract<ScanReading, { kind: 'nothing' }>['reason'];

/** Why the camera cannot be used: each has its own message; the field stays usable in every case. */
export type CameraProblem = 'unsupported' | 'denied' | 'noCamera' | 'busy' | 'engine';

type State =
  | { kind: 'starting' }
  | { kind: 'live'; reason: Reason | null }
  | { kind: 'found'; digits: string; source: 'text' | 'code' }
  | { kind: 'problem'; problem: CameraProblem };

/**
 * The aim frame, as parts of the picture: a band across the middle, three quarters wide, where a painted wagon number
 * (one line of 12 digits, or two) or its code fits; the scanner's benchmark pictures put the number there
 * (bench/src/scan-pictures.ts, AIM of a 1280x720 frame). The overlay is drawn with the same parts over the video,
 * which keeps its own proportions, so the frame seen is the part read first.
 */
const AIM = { x: 0.125, y: 200 / 720, width: 0.75, height: 320 / 720 } as const;

const BIG = { minHeight: 56, px: 3 } as const;

/** The camera error's kind, by the names getUserMedia rejects with. */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noCamera';
  return 'busy';
}

export interface ScanDialogProps extends ScanButtonProps {
  /** The button that opened the dialog: the field it ends gets the focus back when the dialog closes. */
  anchor: HTMLElement;
  onClose: () => void;
}

/**
 * The dialog's texts, loaded with it (the start catalogues leave them out: i18n/bundles/*.ts), in the user's
 * language, and again in another one if it changes. Through i18n/index.ts's `loadFeatureCatalogue` the chunking
 * of the login screen's i18next changed and it grew by 0.7 KB; this needs nothing the dialog does not already load.
 */
const CATALOGUES = import.meta.glob<Record<string, unknown>>('./locales/*.json', { import: 'default' });

function useCatalogue(): boolean {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const [unloadable, setUnloadable] = useState(false);
  const ready = i18n.hasResourceBundle(language, 'translation') && i18n.exists('scan.title', { lng: language });
  useEffect(() => {
    if (ready) return;
    const load = CATALOGUES[`./locales/${language}.json`];
    // The store's 'added' event renders the dialog again (react.bindI18nStore in i18n/index.ts).
    load?.()
      .then((catalogue) => i18n.addResourceBundle(language, 'translation', catalogue, true, true))
      // Without its texts (a chunk that did not come) the dialog still opens, with its buttons: "type it instead"
      // must stay one tap away.
      .catch(() => setUnloadable(true));
  }, [i18n, language, ready]);
  return ready || unloadable;
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/**
 * The number reader (issue 24): the back camera's live picture with an aim frame; the engine reads frames until it
 * finds a wagon or wheelset number with the right check digit, which is then shown large for confirmation before it
 * fills the field. A wrong check digit is never offered. Without a camera (refused, none, not offered by the
 * browser) it says why; "type it instead" is always one tap away. The camera stops when the dialog closes.
 */
export function ScanDialog(props: ScanDialogProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>({ kind: 'starting' });
  /** Readings so far in this dialog: the end-to-end tests wait for some before they say nothing was offered. */
  const [reads, setReads] = useState(0);
  const [scanner, setScanner] = useState<NumberScanner | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [streaming, setStreaming] = useState(false);

  // Closed in any way (a number used, "type it instead", Escape), typing goes on in the field.
  useEffect(() => {
    const field = props.anchor.parentElement?.querySelector('input');
    return () => field?.focus();
  }, [props.anchor]);

  // The camera and the engine start together; both end with the dialog, and with the other's failure: a camera that
  // cannot read is stopped at once, and the first problem is the one said.
  useEffect(() => {
    let opened: MediaStream | undefined;
    let engine: NumberScanner | undefined;
    let closed = false;
    const end = () => {
      closed = true;
      opened?.getTracks().forEach((track) => track.stop());
      void engine?.dispose();
    };
    const fail = (problem: CameraProblem) => {
      if (closed) return;
      end();
      setState({ kind: 'problem', problem });
    };
    if (!navigator.mediaDevices?.getUserMedia) {
      fail('unsupported');
      return;
    }
    navigator.mediaDevices
      .getUserMedia({
        // 720p, as the scanner is measured with (bench/src/scan.ts): more pixels only make each reading slower.
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: false,
      })
      .then((found) => {
        opened = found;
        if (closed) return found.getTracks().forEach((track) => track.stop());
        setStream(found);
      })
      .catch((error: unknown) => fail(cameraProblemOf(error)));
    import('./engine.ts')
      .then((module) => module.createNumberScanner())
      .then((created) => {
        engine = created;
        if (closed) return void created.dispose();
        setScanner(created);
      })
      .catch((error: unknown) => {
        console.error(error);
        fail('engine');
      });
    return end;
  }, []);

  // The picture goes to the video once both are there: the video is rendered only once the texts have come.
  const textsReady = useCatalogue();
  useEffect(() => {
    const element = video.current;
    if (!element || !stream) return;
    let shown = true;
    element.addEventListener('loadeddata', () => shown && setStreaming(true), { once: true });
    element.srcObject = stream;
    return () => {
      shown = false;
    };
  }, [stream, textsReady]);

  useEffect(() => {
    if (streaming && scanner && state.kind === 'starting') setState({ kind: 'live', reason: null });
  }, [streaming, scanner, state.kind]);

  // The reading loop: one frame at a time while the picture is live, until a valid number is found.
  const live = state.kind === 'live';
  useEffect(() => {
    const element = video.current;
    if (!live || !scanner || !element) return;
    let stopped = false;
    void (async () => {
      while (!stopped) {
        const width = element.videoWidth;
        const height = element.videoHeight;
        if (width === 0 || height === 0) {
          await nextFrame();
          continue;
        }
        const aim = { x: AIM.x * width, y: AIM.y * height, width: AIM.width * width, height: AIM.height * height };
        const reading = await scanner.read(element, aim).catch((error: unknown): ScanReading => {
          console.error(error);
          return { kind: 'nothing', reason: 'noNumber' };
        });
        if (stopped) return;
        setReads((count) => count + 1);
        // The engine offers only numbers whose check digit is right; checked again here, as the field's rule.
        const valid = reading.kind === 'number' && validateVehicleNumber(reading.digits).ok;
        if (reading.kind === 'number' && valid) {
          setState({ kind: 'found', digits: reading.digits, source: reading.source });
          return;
        }
        setState({ kind: 'live', reason: reading.kind === 'nothing' ? reading.reason : 'checkDigit' });
        await nextFrame();
      }
    })();
    return () => {
      stopped = true;
    };
  }, [live, scanner]);

  if (!textsReady) return null;
  const title = t('scan.title', { field: props.field });
  const found = state.kind === 'found' ? state : null;
  const status =
    state.kind === 'starting'
      ? t('scan.starting')
      : state.kind === 'live'
        ? t(state.reason ? `scan.reason.${state.reason}` : 'scan.hint')
        : null;

  return (
    <Dialog
      open
      onClose={props.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="md"
      disableRestoreFocus
      aria-labelledby="scan-title"
      data-testid="scan-dialog"
      data-state={state.kind}
      data-reads={reads}
    >
      <DialogTitle id="scan-title">{title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {/* Mounted while the dialog is open: "scan again" goes on with the same stream. */}
        <Box
          sx={{
            display: state.kind === 'problem' || found ? 'none' : 'flex',
            justifyContent: 'center',
            bgcolor: 'common.black',
            borderRadius: 1,
            minHeight: 200,
          }}
        >
          <Box sx={{ position: 'relative', display: 'inline-block', overflow: 'hidden', lineHeight: 0 }}>
            <Box
              component="video"
              ref={video}
              autoPlay
              playsInline
              muted
              aria-label={t('scan.video')}
              data-testid="scan-video"
              sx={{ display: 'block', maxWidth: '100%', maxHeight: phone ? '55vh' : '50vh' }}
            />
            {streaming && (
              <Box
                aria-hidden
                data-testid="scan-aim"
                sx={{
                  position: 'absolute',
                  left: `${AIM.x * 100}%`,
                  top: `${AIM.y * 100}%`,
                  width: `${AIM.width * 100}%`,
                  height: `${AIM.height * 100}%`,
                  border: '3px solid',
                  borderColor: 'common.white',
                  borderRadius: 2,
                  // The picture outside the frame is dimmed: the eye goes to the part that is read.
                  boxShadow: '0 0 0 100vmax rgba(0, 0, 0, 0.45)',
                }}
              />
            )}
          </Box>
        </Box>
        {status && (
          <Box>
            <Typography
              role="status"
              data-testid="scan-status"
              data-reason={state.kind === 'live' ? (state.reason ?? '') : ''}
              sx={{ fontSize: '1.1rem' }}
            >
              {status}
            </Typography>
            {state.kind === 'starting' && <LinearProgress sx={{ mt: 1 }} aria-label={t('scan.starting')} />}
          </Box>
        )}
        {state.kind === 'problem' && (
          <Alert severity="warning" data-testid="scan-problem" data-problem={state.problem}>
            {t(`scan.problem.${state.problem}`)}
          </Alert>
        )}
        {found && <Confirmation digits={found.digits} source={found.source} />}
      </DialogContent>
      <DialogActions
        sx={{
          flexWrap: 'wrap',
          gap: 1,
          px: 3,
          pb: 2,
          '& .MuiButton-root': { ...BIG, flex: { xs: '1 1 100%', sm: '0 0 auto' } },
          '& > :not(style) ~ :not(style)': { ml: 0 },
        }}
      >
        <Button startIcon={<KeyboardIcon />} onClick={props.onClose} data-testid="scan-close">
          {t('scan.type')}
        </Button>
        {found && (
          <>
            <Button
              variant="outlined"
              startIcon={<ReplayIcon />}
              onClick={() => setState({ kind: 'live', reason: null })}
              data-testid="scan-again"
            >
              {t('scan.again')}
            </Button>
            <Button
              variant="contained"
              startIcon={<CheckCircleIcon />}
              onClick={() => {
                props.onClose();
                props.onNumber(found.digits);
              }}
              autoFocus
              data-testid="scan-use"
            >
              {t('scan.use')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The number read, large, in its printed groups, with its check digit marked as right. */
function Confirmation(props: { digits: string; source: 'text' | 'code' }) {
  const { t } = useTranslation();
  const shown = formatVehicleNumber(props.digits);
  const check = props.digits.slice(-1);
  return (
    <Box sx={{ textAlign: 'center', py: 2 }} data-testid="scan-number" data-digits={props.digits}>
      <Typography variant="subtitle1" component="p" color="text.secondary">
        {t(`scan.source.${props.source}`)}
      </Typography>
      <Typography
        component="p"
        sx={{
          fontSize: { xs: '2.25rem', sm: '3.25rem' },
          fontWeight: 600,
          fontVariantNumeric: 'tabular-nums',
          letterSpacing: '0.04em',
          lineHeight: 1.3,
          overflowWrap: 'anywhere',
        }}
      >
        {shown.slice(0, -1)}
        <Box
          component="span"
          sx={{ color: 'success.main', borderBottom: '4px solid', borderColor: 'success.main' }}
          data-testid="scan-check-digit"
        >
          {check}
        </Box>
      </Typography>
      <Typography
        component="p"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, mt: 1, color: 'success.main', fontWeight: 500 }}
      >
        <CheckCircleIcon aria-hidden />
        {t('scan.checkValid', { digit: check })}
      </Typography>
    </Box>
  );
}
