import { formatDateTime, type Language, mayWriteOrders, ROUTES } from '@vers/domain';
import AddAPhotoIcon from '@mui/icons-material/AddAPhoto';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { memo, startTransition, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useNavigate, useParams } from 'react-router';
import { useSession } from '../../app/session.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../app/notifications.ts';
import {
  MAX_THUMB_CHARS,
  deleteImage,
  devicePictures,
  fullPicture,
  refreshImages,
  tidyImages,
} from '../../offline/images.ts';
import { FIRST_CARDS, type PicturesFirstScreen, takeEarlyFirstScreen } from '../../offline/pictures-first-screen.ts';
import { type LocalImage, versdb } from '../../offline/versdb.ts';

/**
 * The list's first read, of its first screen (picturesFirstScreen), when the picture list is the screen being opened:
 * started by the router as the app started, so that IndexedDB answers before React draws the frame and the page
 * (issue 19). The whole list is read after it. Taken once, by the first page, and only shown until the page's live
 * query answers.
 */
const imagesRoute = ROUTES.find((route) => route.name === 'images');
const firstOpened = imagesRoute ? matchPath(imagesRoute.path, location.pathname)?.params.orderId : undefined;
const firstScreen = firstOpened ? takeEarlyFirstScreen(firstOpened) : null;
let firstRead: { orderId: string; screen: Promise<PicturesFirstScreen> } | null =
  firstOpened && firstScreen ? { orderId: firstOpened, screen: firstScreen } : null;

/** The pictures the list shows: all of them once read (`all`), or meanwhile the first screen of `count`. */
interface ListedPictures {
  count: number;
  pictures: LocalImage[];
  all: boolean;
}

/**
 * The device's pictures of the order, live; meanwhile the first read's screen when it comes first. The whole list is
 * read once the first screen is there: both reads started together would share IndexedDB, and the twelve rows of
 * the first screen would wait behind the 200 of the whole list.
 */
function usePictures(orderId: string): ListedPictures | undefined {
  const [firstReadOf] = useState(() => firstRead?.orderId);
  const [early, setEarly] = useState<{ orderId: string; screen: PicturesFirstScreen | null }>();
  useEffect(() => {
    const taken = firstRead?.orderId === orderId ? firstRead : null;
    firstRead = null;
    if (!taken) return;
    let mounted = true;
    void taken.screen.then(
      (screen) => mounted && setEarly({ orderId, screen }),
      () => mounted && setEarly({ orderId, screen: null }),
    );
    return () => {
      mounted = false;
    };
  }, [orderId]);
  const wholeListNow = firstReadOf !== orderId || early?.orderId === orderId;
  const live = useLiveQuery(
    () => (wholeListNow ? devicePictures(versdb, orderId) : undefined),
    [orderId, wholeListNow],
  );
  if (live) return { count: live.length, pictures: live, all: true };
  // Another order's early answer (the page stays mounted when the address names another order) is never shown.
  const screen = early?.orderId === orderId ? early.screen : null;
  return screen ? { ...screen, all: false } : undefined;
}

/** An object URL of `blob` while the component shows it; undefined without one. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

/** Whether a row is kept as before issue 19: the picture as base64 text, no thumbnail, or one too large. */
const isKeptTheOlderWay = (image: LocalImage) =>
  typeof image.data === 'string' ||
  !image.thumb ||
  (image.data instanceof Blob && image.thumb.length > MAX_THUMB_CHARS);

/**
 * The card's picture: the thumbnail; where there is none yet (a row kept before thumbnails, being tidied), the
 * picture itself.
 */
function CardPicture({ image }: { image: LocalImage }) {
  const blob = image.thumb || !(image.data instanceof Blob) ? undefined : image.data;
  const blobUrl = useObjectUrl(blob);
  const src =
    image.thumb ?? (typeof image.data === 'string' ? `data:image/png;base64,${image.data}` : blobUrl) ?? undefined;
  return (
    <Box
      component="img"
      src={src}
      alt={image.name}
      loading="lazy"
      decoding="async"
      sx={{ width: '100%', height: 160, objectFit: 'cover', display: 'block', bgcolor: 'action.hover' }}
    />
  );
}

/**
 * The picture opened large: the full PNG, from the device or, for another device's picture, from the server (then
 * kept). The thumbnail shows meanwhile; offline, with a note, when the full picture is on the server only.
 */
function LargePicture({ image }: { image: LocalImage }) {
  const { t } = useTranslation();
  const [blob, setBlob] = useState<Blob>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setBlob(undefined);
    setFailed(false);
    fullPicture(versdb, image).then(
      (found) => current && setBlob(found),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [image]);
  const url = useObjectUrl(blob);
  return (
    <Stack spacing={1} sx={{ alignItems: 'center' }}>
      <Box sx={{ position: 'relative' }}>
        <Box
          component="img"
          src={url ?? image.thumb}
          alt={image.name}
          data-full={url ? 'true' : 'false'}
          sx={{ maxWidth: '100%', maxHeight: '80vh', minWidth: url ? undefined : 320, display: 'block' }}
        />
        {!url && !failed && (
          <CircularProgress sx={{ position: 'absolute', top: '50%', left: '50%', mt: -2.5, ml: -2.5 }} />
        )}
      </Box>
      {failed && (
        <Alert severity="info" data-testid="image-large-unavailable">
          {t('images.fullUnavailable')}
        </Alert>
      )}
    </Stack>
  );
}

/** What a card shows of a picture: a new read of the same row (the live query reads every row again) draws nothing. */
const sameCard = (a: LocalImage, b: LocalImage) =>
  a.imageId === b.imageId &&
  a.sent === b.sent &&
  a.name === b.name &&
  a.capturedDate === b.capturedDate &&
  a.creator === b.creator &&
  a.thumb === b.thumb &&
  a.refusal?.code === b.refusal?.code &&
  a.refusal?.message === b.refusal?.message &&
  (typeof a.data === 'string' || typeof b.data === 'string'
    ? a.data === b.data
    : (a.data as Blob | undefined)?.size === (b.data as Blob | undefined)?.size);

interface PictureCardProps {
  image: LocalImage;
  onOpen: (image: LocalImage) => void;
  /** Absent for a role that may not change orders: the card has no delete button. */
  onDelete?: (image: LocalImage) => void;
}

const PictureCard = memo(
  function PictureCard({ image, onOpen, onDelete }: PictureCardProps) {
    const { t, i18n } = useTranslation();
    const language = (i18n.resolvedLanguage ?? 'de') as Language;
    return (
      <Card data-testid="image-card" data-id={image.imageId} data-sent={image.sent}>
        <CardActionArea onClick={() => onOpen(image)} aria-label={t('images.open', { name: image.name })}>
          <CardPicture image={image} />
        </CardActionArea>
        <CardContent sx={{ py: 1 }}>
          <Typography variant="body2" data-testid="image-date">
            {formatDateTime(image.capturedDate, language)}
          </Typography>
          {image.creator && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {image.creator}
            </Typography>
          )}
          {image.sent === 0 && !image.refusal && (
            <Chip
              size="small"
              icon={<CloudOffIcon />}
              label={t('images.notUploaded')}
              color="warning"
              sx={{ mt: 0.5 }}
              data-testid="image-unsent"
            />
          )}
          {image.refusal && (
            <Typography variant="body2" color="error" data-testid="image-refused">
              {t('images.refused', {
                reason: t(`errors.${image.refusal.code}`, { defaultValue: image.refusal.message }),
              })}
            </Typography>
          )}
        </CardContent>
        {onDelete && (
          <CardActions sx={{ justifyContent: 'flex-end', pt: 0 }}>
            <IconButton
              onClick={() => onDelete(image)}
              aria-label={t('images.delete')}
              data-testid="image-delete"
              sx={{ width: 48, height: 48 }}
            >
              <DeleteIcon />
            </IconButton>
          </CardActions>
        )}
      </Card>
    );
  },
  (before, after) =>
    sameCard(before.image, after.image) && before.onOpen === after.onOpen && before.onDelete === after.onDelete,
);

/**
 * Images screen (docs/requirements/orders.md#images-screen, `/images/{orderId}`): the order's pictures from the device,
 * newest first, with capture date; one opens large; delete after confirmation. Opening it brings the list in line with
 * the server (others' pictures come, deleted ones go); offline the device's pictures show as they are.
 */
export default function ImagesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const [large, setLarge] = useState<LocalImage | null>(null);
  const [deleting, setDeleting] = useState<LocalImage | null>(null);
  const order = useLiveQuery(() => versdb.orders.get(orderId), [orderId]);
  // The quality manager sees the pictures but neither takes nor deletes one (the server refuses both).
  const mayWrite = mayWriteOrders(useSession()?.roles ?? []);
  const list = usePictures(orderId);
  const images = list?.pictures;
  const [allCards, setAllCards] = useState(false);
  const allRead = list?.all === true;
  useEffect(() => {
    if (allRead && !allCards) startTransition(() => setAllCards(true));
  }, [allRead, allCards]);
  const cards = allCards ? images : images?.slice(0, FIRST_CARDS);
  // Once the device's list is there: reading the rows and showing them go first, lining up with the server (which
  // reads the order's rows too) after, so that the two reads do not share the disk and the page meanwhile.
  useEffect(() => {
    if (allRead) void refreshImages(versdb, orderId);
  }, [allRead, orderId]);
  // Rows kept the older way (the picture as base64 text, no thumbnail or one too large) are brought up to date,
  // once each.
  const tidying = useRef(new Set<string>());
  useEffect(() => {
    const ids = (images ?? [])
      .filter((image) => !tidying.current.has(image.imageId) && isKeptTheOlderWay(image))
      .map((image) => image.imageId);
    if (ids.length === 0) return;
    ids.forEach((id) => tidying.current.add(id));
    void tidyImages(versdb, ids);
  }, [images]);

  const orderPath = order ? `/orders/${order.order.type.toLowerCase()}/${orderId}/basedata` : null;
  const confirmDelete = async () => {
    const image = deleting;
    setDeleting(null);
    if (!image) return;
    const outcome = await deleteImage(versdb, image);
    notifications.show(outcome === 'deleted' ? 'images.deleted' : 'images.deleteLater', 'info');
  };

  return (
    <Stack spacing={2} data-testid="images-page">
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {orderPath && (
          <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate(orderPath)} sx={{ minHeight: 48 }}>
            {t('images.backToOrder')}
          </Button>
        )}
        {order && (
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {order.order.number || order.order.maintenanceNumber}
          </Typography>
        )}
        {orderPath && mayWrite && (
          <Button
            variant="contained"
            startIcon={<AddAPhotoIcon />}
            onClick={() => void navigate(`/camera/${order!.order.type.toLowerCase()}/${orderId}/basedata`)}
            sx={{ minHeight: 48 }}
            data-testid="images-take"
          >
            {t('images.take')}
          </Button>
        )}
      </Stack>
      {list && list.count === 0 && (
        <Alert severity="info" data-testid="images-empty">
          {t('images.none')}
        </Alert>
      )}
      <Box
        data-testid="images-list"
        data-count={list?.count}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
      >
        {cards?.map((image) => (
          <PictureCard
            key={image.imageId}
            image={image}
            onOpen={setLarge}
            onDelete={mayWrite ? setDeleting : undefined}
          />
        ))}
      </Box>
      <Dialog open={large !== null} onClose={() => setLarge(null)} maxWidth="lg" data-testid="image-large">
        <DialogContent sx={{ p: 1 }}>{large && <LargePicture image={large} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setLarge(null)} sx={{ minHeight: 48 }}>
            {t('common.close')}
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t('images.delete')}
        message={t('images.deleteConfirm')}
        confirmLabel={t('images.delete')}
        danger
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
