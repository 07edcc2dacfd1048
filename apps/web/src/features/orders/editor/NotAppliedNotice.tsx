import { SENT_STATES } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { versdb } from '../../../offline/versdb.ts';
import { isNotApplied } from '../../unsent/unsent-view.ts';

/**
 * Changes to this order that the server did not apply (refused, order unknown, order done): never dropped
 * silently — the editor says how many, and the profile page lists each with its reason.
 */
export function NotAppliedNotice({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Through the [sent+orderId] index: only waiting, unknown-order and refused rows are read, never the whole
  // order (a live query re-runs after every save; 5,000 rows each time slowed every edit by a tenth of a second).
  const count = useLiveQuery(
    () =>
      versdb.orderResults
        .where('[sent+orderId]')
        .anyOf([SENT_STATES.UNSENT, SENT_STATES.ORDER_UNKNOWN, SENT_STATES.REFUSED].map((sent) => [sent, orderId]))
        .filter(isNotApplied)
        .count(),
    [orderId],
    0,
  );
  if (count === 0) return null;
  return (
    <Alert
      severity="error"
      data-testid="order-not-applied"
      data-count={count}
      action={
        <Button color="inherit" onClick={() => void navigate('/profile')} data-testid="order-not-applied-show">
          {t('orders.editor.notApplied.show')}
        </Button>
      }
    >
      {t('orders.editor.notApplied.text', { count })}
    </Alert>
  );
}
