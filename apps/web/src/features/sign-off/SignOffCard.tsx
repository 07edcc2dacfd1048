import { type OrderStatus, type OrderType, type SignOff, isReadOnlyStatus, maySetStatus } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { SignOffList } from './SignOffList.tsx';
import { SignOffFields, useSignOff } from './SignOffFields.tsx';
import { fetchOrder, fetchSignOffs } from './sign-off-api.ts';

/**
 * The order's sign-offs on the documents page (issue 21): who signed what and when, superseded ones marked, each
 * with its check code; and the sign-off "released to service" of a done order, which a release to service needs.
 */
export function SignOffCard(props: {
  orderId: string;
  orderType: OrderType;
  roles: readonly string[];
  online: boolean;
  /** Bumped by the page when a document call said the release is not signed: the list is read again. */
  refresh: number;
}) {
  const { t } = useTranslation();
  const [signOffs, setSignOffs] = useState<SignOff[] | null>(null);
  /** The order's status on the server, which the sign-off asks for (the device's copy may lag behind). */
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const [failed, setFailed] = useState(false);
  const [dialog, setDialog] = useState(false);

  const load = useCallback(async () => {
    try {
      const [list, order] = await Promise.all([fetchSignOffs(props.orderId), fetchOrder(props.orderId)]);
      setSignOffs(list);
      setStatus(order.status as OrderStatus);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [props.orderId]);
  useEffect(() => {
    void load();
  }, [load, props.refresh]);

  const released = signOffs?.some((row) => row.meaning === 'RELEASED_TO_SERVICE' && row.supersededAt === null);
  const done = status !== null && isReadOnlyStatus(status);
  const maySign = maySetStatus('DONE', props.orderType, props.roles);

  return (
    <Paper sx={{ p: 2 }} data-testid="sign-off-card">
      <Typography variant="subtitle1" component="h3">
        {t('signOff.card.title')}
      </Typography>
      {failed && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {t('signOff.card.loadError')}
        </Alert>
      )}
      {signOffs?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 1 }} data-testid="sign-off-none">
          {t('signOff.card.none')}
        </Typography>
      )}
      <SignOffList signOffs={signOffs ?? []} />
      {!released && (
        <Stack spacing={1} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t(done ? 'signOff.card.releaseNeeded' : 'signOff.card.releaseNeedsDone')}
          </Typography>
          {done && maySign && (
            <Button
              variant="outlined"
              onClick={() => setDialog(true)}
              disabled={!props.online}
              sx={{ minHeight: 48, alignSelf: 'flex-start' }}
              data-testid="sign-off-release"
            >
              {t('signOff.card.signRelease')}
            </Button>
          )}
        </Stack>
      )}
      {dialog && (
        <ReleaseDialog
          orderId={props.orderId}
          orderType={props.orderType}
          online={props.online}
          onClose={() => setDialog(false)}
          onSigned={() => {
            setDialog(false);
            notifications.show('signOff.signed', 'success');
            void load();
          }}
        />
      )}
    </Paper>
  );
}

function ReleaseDialog(props: {
  orderId: string;
  orderType: OrderType;
  online: boolean;
  onClose: () => void;
  onSigned: () => void;
}) {
  const { t } = useTranslation();
  const signOff = useSignOff(props.orderId, 'RELEASED_TO_SERVICE');
  const sign = async () => {
    if ((await signOff.sign()).kind === 'signed') props.onSigned();
  };
  return (
    <Dialog open onClose={props.onClose} maxWidth="xs" fullWidth data-testid="sign-off-dialog">
      <DialogTitle>{t('signOff.card.signRelease')}</DialogTitle>
      <DialogContent>
        <SignOffFields
          state={signOff}
          orderType={props.orderType}
          fixedMeaning="RELEASED_TO_SERVICE"
          online={props.online}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!signOff.ready || signOff.busy || !props.online}
          onClick={() => void sign()}
          data-testid="sign-off-save"
        >
          {t('signOff.sign')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
