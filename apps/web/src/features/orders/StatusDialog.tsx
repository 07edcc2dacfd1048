import { type OrderStatus, type OrderType, displayStatus, needsSignOff, statusOptions } from '@vers/domain';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignOffFields, useSignOff } from '../sign-off/SignOffFields.tsx';

/**
 * "Change status" (docs/requirements/statuses.md#status-dialog): the current status and one radio option for each
 * status the user may choose, the first preselected; save is disabled with none chosen. A done status is set by a
 * sign-off (issue 21): the dialog then asks what the signer states and their password, and needs the server.
 */
export function StatusDialog(props: {
  orderId: string;
  current: OrderStatus;
  orderType: OrderType;
  roles: readonly string[];
  busy: boolean;
  online: boolean;
  onSave: (status: OrderStatus) => void;
  /** A sign-off set the status: the server has it already. */
  onSigned: (status: OrderStatus) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const options = statusOptions(props.current, props.orderType, props.roles);
  const [chosen, setChosen] = useState<OrderStatus | null>(options[0] ?? null);
  const signOff = useSignOff(props.orderId, 'QUALITY_CHECK_PASSED');
  const signing = chosen !== null && needsSignOff(chosen);
  const save = async () => {
    if (!chosen) return;
    if (!signing) return props.onSave(chosen);
    const outcome = await signOff.sign(chosen === 'DONE_ARCHIVED' ? 'DONE_ARCHIVED' : 'DONE');
    if (outcome.kind === 'signed') props.onSigned(chosen);
  };
  return (
    <Dialog open onClose={props.onCancel} maxWidth="xs" fullWidth data-testid="status-dialog">
      <DialogTitle>{t('orders.statusDialog.title')}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>
          {t('orders.statusDialog.current', { status: t(`orders.status.${displayStatus(props.current)}`) })}
        </Typography>
        {options.length === 0 ? (
          <Typography color="text.secondary">{t('orders.statusDialog.none')}</Typography>
        ) : (
          <RadioGroup value={chosen ?? ''} onChange={(e) => setChosen(e.target.value as OrderStatus)}>
            {options.map((status) => (
              <FormControlLabel
                key={status}
                value={status}
                control={<Radio />}
                label={t(`orders.status.${status}`)}
                data-testid={`status-option-${status}`}
                sx={{ minHeight: 48 }}
              />
            ))}
          </RadioGroup>
        )}
        {signing && <SignOffFields state={signOff} orderType={props.orderType} online={props.online} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={chosen === null || props.busy || (signing && (!signOff.ready || signOff.busy || !props.online))}
          onClick={() => void save()}
          data-testid="status-save"
        >
          {t(signing ? 'signOff.sign' : 'common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
