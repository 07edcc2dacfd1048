import {
  type Order,
  type OrderStatus,
  type OrderType,
  activityPushResultSchema,
  displayStatus,
  formatVehicleNumber,
  isReadOnlyStatus,
  orderSchema,
} from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LockIcon from '@mui/icons-material/Lock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiFailure, call } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { OrderTypeIcon } from './OrdersPage.tsx';
import { StatusDialog } from './StatusDialog.tsx';
import { syncScheduler } from '../../offline/scheduler.ts';

/** The order's status line: type icon, wagon or wheelset number, status and its icon (orders §2 "footer"). */
function OrderFooter({ order }: { order: Order }) {
  const { t } = useTranslation();
  const status = displayStatus(order.status as OrderStatus);
  const done = isReadOnlyStatus(status);
  return (
    <Box data-testid="order-footer" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', py: 1 }}>
      <OrderTypeIcon type={order.type as OrderType} />
      <Typography sx={{ fontWeight: 600 }}>{formatVehicleNumber(order.maintenanceNumber)}</Typography>
      <Typography color="text.secondary">{order.number}</Typography>
      <Box sx={{ flexGrow: 1 }} />
      {done ? <CheckCircleIcon color="success" /> : <EditNoteIcon color="primary" />}
      <Typography data-testid="order-status">{t(`orders.status.${status}`)}</Typography>
    </Box>
  );
}

/**
 * The order editor's frame. This first version shows the order and changes its status; the tabs with the
 * order's fields arrive with the field catalogue (issues 4 and 5).
 */
export default function EditOrderPage() {
  const { t } = useTranslation();
  const { orderId } = useParams();
  const session = useSession();
  const [order, setOrder] = useState<Order | null>(null);
  const [missing, setMissing] = useState(false);
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setOrder(await call(`orders/${orderId}`, orderSchema, { handles: [404] }));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) setMissing(true);
    }
  }, [orderId]);

  useEffect(() => {
    void load();
  }, [load]);

  // The open order is synchronised every 10 s; leaving the editor exchanges at once (orders §2).
  useEffect(() => {
    if (!orderId) return;
    syncScheduler.setOpenOrder(orderId);
    return () => {
      syncScheduler.setOpenOrder(null);
      void syncScheduler.exchangeNow();
    };
  }, [orderId]);

  const changeStatus = async (status: OrderStatus) => {
    if (!order) return;
    setBusy(true);
    try {
      await call(`orders/${order.id}/status`, activityPushResultSchema, {
        method: 'POST',
        body: { status, id: crypto.randomUUID() },
        handles: [400, 403, 404, 409],
      });
      notifications.show('orders.statusDialog.updated', 'success');
      setDialog(false);
      await load();
    } catch {
      notifications.show('orders.statusDialog.failed', 'error');
    } finally {
      setBusy(false);
    }
  };

  if (missing) return <Alert severity="warning">{t('orders.edit.notFound')}</Alert>;
  if (!order || !session) return null;
  const readOnly = isReadOnlyStatus(order.status as OrderStatus);
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="edit-order">
      <OrderFooter order={order} />
      {readOnly && (
        <Alert severity="info" icon={<LockIcon />} data-testid="order-read-only">
          {t('orders.edit.readOnly')}
        </Alert>
      )}
      <Alert severity="info" variant="outlined">
        {t('orders.edit.tabsPending')}
      </Alert>
      <Box>
        <Button variant="contained" onClick={() => setDialog(true)} data-testid="status-change">
          {t('orders.statusDialog.title')}
        </Button>
      </Box>
      {dialog && (
        <StatusDialog
          current={order.status as OrderStatus}
          orderType={order.type as OrderType}
          roles={session.roles}
          busy={busy}
          onCancel={() => setDialog(false)}
          onSave={(status) => void changeStatus(status)}
        />
      )}
    </Paper>
  );
}
