import { formatVehicleNumber, isReadOnlyStatus, type Order, type OrderStatus, type OrderType } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditNoteIcon from '@mui/icons-material/EditNote';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { OrderTypeIcon } from '../order-type.tsx';

/**
 * The order's status line: type icon, wagon or wheelset number, status and its icon
 * (docs/requirements/orders.md#editor-toolbar).
 */
export const OrderFooter = memo(function OrderFooter({ order, status }: { order: Order; status: OrderStatus }) {
  const { t } = useTranslation();
  const done = isReadOnlyStatus(status);
  return (
    <Paper
      data-testid="order-footer"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        flexWrap: 'wrap',
        px: 2,
        py: 1,
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
      }}
    >
      <OrderTypeIcon type={order.type as OrderType} />
      <Typography sx={{ fontWeight: 600 }}>{formatVehicleNumber(order.maintenanceNumber)}</Typography>
      <Typography color="text.secondary">{order.number}</Typography>
      <Box sx={{ flexGrow: 1 }} />
      {done ? <CheckCircleIcon color="success" /> : <EditNoteIcon color="primary" />}
      <Typography data-testid="order-status">{t(`orders.status.${status}`)}</Typography>
    </Paper>
  );
});
