import { type OrderType, ORDER_TYPES } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { OrderTypeIcon } from './order-type.tsx';
import { XmlImportButton, XmlImportMessage } from './XmlImportButton.tsx';
import { EXTERNAL_MAX_LENGTH, numberMessageKey } from './add-order/add-order-form.ts';
import { useAddOrderForm } from './add-order/useAddOrderForm.ts';
import { TOUCH, WheelsetRows, numberInputProps } from './add-order/WheelsetRows.tsx';
import { ScanButton } from '../scan/ScanButton.tsx';

/**
 * The add-order screen (docs/requirements/orders.md#add-order): the layout only. The form's rules are plain functions
 * in add-order/add-order-form.ts, its state and actions the hook add-order/useAddOrderForm.ts.
 */
export default function AddOrderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const order = useAddOrderForm(() => navigate('/orders'));
  const { form, isWagon, chosen, busy, serverMessage } = order;
  const { refused, vehicleTemplate } = form;
  const numberMessage = numberMessageKey(form.number, refused.get('number'));

  return (
    <Paper
      component="form"
      variant="outlined"
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        void order.submit();
      }}
      sx={{ maxWidth: 860, p: { xs: 2, sm: 3 } }}
      data-testid="add-order-form"
    >
      <Stack spacing={3}>
        <Box>
          <Typography id="order-type-label" variant="subtitle1" component="h2" sx={{ mb: 1, fontWeight: 600 }}>
            {t('orders.add.type')}
          </Typography>
          <ToggleButtonGroup
            exclusive
            fullWidth
            color="primary"
            value={form.type}
            onChange={(_, next: OrderType | null) => order.changeType(next)}
            aria-labelledby="order-type-label"
          >
            {[ORDER_TYPES.WAGON, ORDER_TYPES.WHEELSET].map((option) => (
              <ToggleButton
                key={option}
                value={option}
                data-testid={`order-type-${option.toLowerCase()}`}
                sx={{
                  minHeight: 88,
                  gap: 1.5,
                  fontSize: '1.1rem',
                  textTransform: 'none',
                  flexDirection: { xs: 'column', sm: 'row' },
                }}
              >
                <OrderTypeIcon type={option} fontSize="large" />
                {t(`orders.type.${option}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>

        <TextField
          label={isWagon ? t('orders.add.wagonNumber') : t('orders.add.wheelsetNumber')}
          value={form.number.value}
          required
          onChange={(e) => order.changeNumber(e.target.value)}
          onBlur={order.checkNumber}
          error={form.number.wrong || refused.has('number')}
          helperText={numberMessage ? t(numberMessage) : t('orders.add.numberHint')}
          fullWidth
          slotProps={{
            htmlInput: numberInputProps('order-number'),
            // A number read by the camera goes through the field's own rules: changed, then checked as on leaving.
            input: {
              endAdornment: (
                <ScanButton
                  field={isWagon ? t('orders.add.wagonNumber') : t('orders.add.wheelsetNumber')}
                  testId="order-scan"
                  onNumber={(digits) => {
                    order.changeNumber(digits);
                    order.checkNumber();
                  }}
                />
              ),
            },
          }}
          sx={{ '& input': { fontSize: '1.25rem', letterSpacing: '0.04em' } }}
        />
        <Box sx={{ mt: -1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <XmlImportButton
              key={form.type}
              state={vehicleTemplate}
              onPick={order.importVehicle}
              testId="order-import"
              label={t('orders.import.vehicle')}
            />
            {vehicleTemplate.kind !== 'idle' && (
              <Typography variant="body2" color="text.secondary" noWrap sx={{ minWidth: 0 }}>
                {vehicleTemplate.kind === 'busy' ? t('orders.import.checking') : vehicleTemplate.filename}
              </Typography>
            )}
          </Box>
          <XmlImportMessage state={vehicleTemplate} testId="order-import" />
        </Box>

        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <Autocomplete
            options={order.contractorOptions}
            value={chosen}
            onChange={(_, option) => order.changeContractor(option)}
            getOptionLabel={(option) => option.text}
            getOptionKey={(option) => option.value}
            isOptionEqualToValue={(option, value) => option.value === value.value}
            noOptionsText={t('orders.add.noContractor')}
            renderOption={({ key, ...props }, option) => (
              <Box component="li" key={key} {...props} sx={{ minHeight: 52 }}>
                <Box sx={{ flexGrow: 1 }}>{option.text}</Box>
                <Typography variant="body2" color="text.secondary" sx={{ ml: 2 }}>
                  {option.value}
                </Typography>
              </Box>
            )}
            slotProps={{ listbox: { sx: { maxHeight: 300 } } }}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('orders.add.contractor')}
                error={refused.has('contractor')}
                helperText={refused.has('contractor') ? t(refused.get('contractor')!) : undefined}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'order-contractor' },
                }}
              />
            )}
          />
          <TextField
            label={t('orders.add.external')}
            value={form.external}
            onChange={(e) => order.changeExternal(e.target.value)}
            error={refused.has('external')}
            helperText={refused.has('external') ? t(refused.get('external')!) : undefined}
            fullWidth
            slotProps={{
              htmlInput: { 'data-testid': 'order-external', maxLength: EXTERNAL_MAX_LENGTH, autoComplete: 'off' },
            }}
          />
        </Box>

        {isWagon && (
          <WheelsetRows
            rows={form.wheelsets}
            refused={refused}
            onChange={order.changeRow}
            onCheck={order.checkRow}
            onImport={order.importWheelset}
            onRemove={order.removeRow}
            onAdd={order.addRow}
          />
        )}

        {serverMessage && (
          <Alert severity="error" data-testid="order-save-error" onClose={order.dismissServerMessage}>
            {t(serverMessage)}
          </Alert>
        )}

        <Box
          sx={{
            display: 'flex',
            gap: 2,
            justifyContent: 'flex-end',
            flexDirection: { xs: 'column-reverse', sm: 'row' },
          }}
        >
          <Button onClick={() => navigate('/orders')} disabled={busy} sx={{ minHeight: TOUCH }}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={order.invalid || busy || order.importing}
            data-testid="order-save"
            sx={{ minHeight: TOUCH, minWidth: { sm: 180 } }}
          >
            {t('common.save')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
