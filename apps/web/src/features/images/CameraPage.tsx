import { type PngProblem, pngProblem } from '@vers/domain';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CameraAltIcon from '@mui/icons-material/CameraAlt';
import CheckIcon from '@mui/icons-material/Check';
import ReplayIcon from '@mui/icons-material/Replay';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notifications } from '../../app/notifications.ts';
import { storeImage } from '../../offline/images.ts';
import { versdb } from '../../offline/versdb.ts';

type Mode = 'starting' | 'live' | 'noCamera' | 'preview';

const big = { minHeight: 56, px: 3 } as const;

/** The PNG of the video's current frame. */
async function captureFrame(video: HTMLVideoElement): Promise<Uint8Array | null> {
  if (video.videoWidth === 0 || video.videoHeight === 0) return null;
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
}

/**
 * Camera screen (docs/requirements/orders.md#camera-screen, `/camera/{orderType}/{orderId}/{tabName}`): the live
 * picture of the back camera, take, look, keep or take again. Where there is no camera (or the user prefers), a PNG
 * file serves instead. A kept picture is stored on the device at once and uploaded by the scheduler.
 */
export default function CameraPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderType = '', orderId = '', tabName = '' } = useParams();
  const video = useRef<HTMLVideoElement>(null);
  const [mode, setMode] = useState<Mode>('starting');
  const [taken, setTaken] = useState<{ bytes: Uint8Array; url: string } | null>(null);
  const [problem, setProblem] = useState<PngProblem | null>(null);
  const [saving, setSaving] = useState(false);
  const back = () => void navigate(`/orders/${orderType}/${orderId}/${tabName}`);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      setMode('noCamera');
      return;
    }
    // The back camera on a tablet ("environment"); any camera where there is only one.
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      .then((found) => {
        stream = found;
        if (cancelled) return found.getTracks().forEach((track) => track.stop());
        const element = video.current;
        if (!element) return;
        // "Take" is offered once the first frame is there: before it, the picture would be empty.
        element.addEventListener('loadeddata', () => !cancelled && setMode('live'), { once: true });
        element.srcObject = found;
      })
      .catch(() => !cancelled && setMode('noCamera'));
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  useEffect(() => {
    if (!taken) return;
    return () => URL.revokeObjectURL(taken.url);
  }, [taken]);

  const show = (bytes: Uint8Array) => {
    setProblem(null);
    setTaken({ bytes, url: URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'image/png' })) });
  };
  const take = async () => {
    if (!video.current) return;
    const bytes = await captureFrame(video.current);
    if (bytes) show(bytes);
  };
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const found = pngProblem(bytes);
    if (found) return setProblem(found);
    show(bytes);
  };
  const keep = async () => {
    if (!taken) return;
    setSaving(true);
    try {
      const stored = await storeImage(versdb, { orderId, tabName, bytes: taken.bytes });
      if (!stored.ok) return setProblem(stored.problem);
      notifications.show('images.saved', 'success');
      back();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }} data-testid="camera-page" data-mode={taken ? 'preview' : mode}>
      <Paper sx={{ p: 1, bgcolor: 'common.black', display: 'flex', justifyContent: 'center', minHeight: 240 }}>
        {taken && (
          <Box
            component="img"
            src={taken.url}
            alt={t('images.preview')}
            data-testid="camera-preview"
            sx={{ maxWidth: '100%', maxHeight: '60vh' }}
          />
        )}
        {/* Always mounted: it keeps the camera's stream while the picture is looked at, for "take again". */}
        <Box
          component="video"
          ref={video}
          autoPlay
          playsInline
          muted
          data-testid="camera-video"
          sx={{ maxWidth: '100%', maxHeight: '60vh', display: mode === 'live' && !taken ? 'block' : 'none' }}
        />
      </Paper>
      {mode === 'noCamera' && !taken && (
        <Alert severity="info" data-testid="camera-none">
          {t('images.noCamera')}
        </Alert>
      )}
      {problem && (
        <Alert severity="error" data-testid="camera-problem">
          {t(problem === 'truncated' ? 'images.truncated' : 'errors.NOT_PNG')}
        </Alert>
      )}
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={back} sx={big} data-testid="camera-back">
          {t('images.backToOrder')}
        </Button>
        {taken ? (
          <>
            <Button
              variant="outlined"
              startIcon={<ReplayIcon />}
              onClick={() => setTaken(null)}
              sx={big}
              data-testid="camera-retake"
            >
              {t('images.retake')}
            </Button>
            <Button
              variant="contained"
              startIcon={<CheckIcon />}
              onClick={() => void keep()}
              disabled={saving}
              sx={big}
              data-testid="camera-keep"
            >
              {t('images.keep')}
            </Button>
          </>
        ) : (
          <>
            <Button
              variant="contained"
              startIcon={<CameraAltIcon />}
              onClick={() => void take()}
              disabled={mode !== 'live'}
              sx={big}
              data-testid="camera-take"
            >
              {t('images.take')}
            </Button>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} sx={big}>
              {t('images.pickFile')}
              <input
                type="file"
                accept="image/png"
                hidden
                onChange={(event) => void pick(event)}
                data-testid="camera-file"
              />
            </Button>
          </>
        )}
      </Stack>
    </Stack>
  );
}
