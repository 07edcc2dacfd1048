import {
  type CreateOrderRequest,
  type Language,
  type OrderType,
  ORDER_TYPES,
  WHEELSETS_PER_WAGON,
  orderSchema,
  validateVehicleNumber,
} from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiFailure, call } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { createOrderLocally } from '../../offline/local-orders.ts';
import { deviceId } from '../../offline/device.ts';
import { versdb } from '../../offline/versdb.ts';
import { CONTRACTOR_LIST, OrderTypeIcon } from './OrdersPage.tsx';
import { XmlImportButton, XmlImportMessage, useXmlImports } from './XmlImportButton.tsx';
import { IDLE, type ImportState, assetIdOf, newUuid, wheelsetNumbersOf } from './xml-import.ts';

/** Statuses this screen reports itself; no connection, 401, 403 and 502 keep the app's global reaction. */
const HANDLED = [0, 400, 404, 409, 413, 500, 502, 503, 504] as const;
/** Room for a pasted number with spaces and hyphen ("21 81 2471 217-3" is 16 characters). */
const NUMBER_MAX_LENGTH = 24;
const EXTERNAL_MAX_LENGTH = 100;

/** A field the server can name in a refusal: the main number, one wheelset row, or another field. */
type FieldKey = 'number' | 'contractor' | 'external' | `wheelset-${number}`;

interface NumberField {
  value: string;
  /** The check on leaving the field failed; cleared while the user types again. */
  wrong: boolean;
}

interface WheelsetRow extends NumberField {
  /** Stable React key: rows can be removed from the middle. */
  key: number;
  /** The row's XML template import; a VALID one's asset id is sent with the order. */
  template: ImportState;
}

interface ContractorOption {
  value: string;
  text: string;
}

const emptyField: NumberField = { value: '', wrong: false };

/** The field a server path such as `body.wagon.wheelsetsOutgoing.1.number` names. */
function fieldOf(path: string): FieldKey | null {
  const wheelset = /^body\.wagon\.wheelsetsOutgoing\.(\d+)/.exec(path);
  if (wheelset) return `wheelset-${Number(wheelset[1])}`;
  if (/^body\.(maintenanceNumber|wagon\.number|wheelset\.number)/.test(path)) return 'number';
  if (path.startsWith('body.contractor')) return 'contractor';
  if (path.startsWith('body.externalOrderNumber')) return 'external';
  return null;
}

/** Leaving a number field: a correct number is rewritten in its printed form, a wrong one is marked. */
function checked(value: string): NumberField {
  const result = validateVehicleNumber(value);
  return result.ok ? { value: result.formatted, wrong: false } : { value, wrong: true };
}

const isValidNumber = (value: string) => validateVehicleNumber(value).ok;
const digitsOf = (value: string) => {
  const result = validateVehicleNumber(value);
  return result.ok ? result.digits : value;
};

/** Big targets for gloved hands. */
const TOUCH = 56;

export default function AddOrderPage() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const navigate = useNavigate();
  const [type, setType] = useState<OrderType>(ORDER_TYPES.WAGON);
  const [number, setNumber] = useState<NumberField>(emptyField);
  const [contractor, setContractor] = useState<ContractorOption | null>(null);
  const [external, setExternal] = useState('');
  const nextKey = useRef(0);
  const newRow = (value = ''): WheelsetRow => ({ ...checked(value), key: nextKey.current++, template: IDLE });
  const [wheelsets, setWheelsets] = useState<WheelsetRow[]>(() =>
    Array.from({ length: WHEELSETS_PER_WAGON.default }, () => newRow()),
  );
  /**
   * The vehicle's XML template import: a VALID one's incoming values are the order's start
   * (docs/requirements/orders.md#xml-template-import).
   */
  const [vehicleTemplate, setVehicleTemplate] = useState<ImportState>(IDLE);
  const imports = useXmlImports();
  /** The rows as last rendered, for the answers of imports that come later. */
  const currentRows = useRef(wheelsets);
  useEffect(() => {
    currentRows.current = wheelsets;
  }, [wheelsets]);
  /**
   * A removed row takes its focused remove button with it, and the focus would fall back to the page: it goes to
   * the remove button now in that place (the last one when the last row went), or to "add" once none may go.
   */
  const removeButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAfterRemoval = useRef<number | null>(null);
  useEffect(() => {
    const index = focusAfterRemoval.current;
    if (index === null) return;
    focusAfterRemoval.current = null;
    const next = removeButtons.current[Math.min(index, wheelsets.length - 1)];
    (next && !next.disabled ? next : addButton.current)?.focus();
  }, [wheelsets]);
  /** The fields the server refused on the last save, with the message to show; cleared when changed. */
  const [refused, setRefused] = useState<ReadonlyMap<FieldKey, string>>(new Map());
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** One id per form: a repeated save after a lost answer finds the order created first (server is idempotent). */
  const [orderId] = useState(newUuid);

  const list = useLiveQuery(() => versdb.defaultOptions.get([CONTRACTOR_LIST, language]), [language]);
  const contractorOptions = useMemo<ContractorOption[]>(
    () =>
      (list?.values ?? [])
        .map((v) => ({ value: v.value, text: v.text }))
        .sort((a, b) => a.text.localeCompare(b.text, language)),
    [list, language],
  );
  // The chosen contractor shows in the current language's text when the language changes.
  const chosen = contractor ? (contractorOptions.find((o) => o.value === contractor.value) ?? contractor) : null;

  const isWagon = type === ORDER_TYPES.WAGON;
  /** A template still being checked would be lost by a save now. */
  const importing =
    vehicleTemplate.kind === 'busy' || (isWagon && wheelsets.some((row) => row.template.kind === 'busy'));
  const numberEmpty = number.value.trim() === '';
  const invalid =
    numberEmpty ||
    !isValidNumber(number.value) ||
    (isWagon && wheelsets.some((row) => !isValidNumber(row.value))) ||
    [...refused.keys()].some((key) => isWagon || !key.startsWith('wheelset-'));

  const unrefuse = (...keys: FieldKey[]) =>
    setRefused((current) =>
      keys.some((key) => current.has(key)) ? new Map([...current].filter(([key]) => !keys.includes(key))) : current,
    );
  /** Rows move when one is added or removed: a server mark on a row index no longer names the same row. */
  const unrefuseRows = () =>
    setRefused((current) => new Map([...current].filter(([key]) => !key.startsWith('wheelset-'))));

  const changeRow = (index: number, change: (row: WheelsetRow) => WheelsetRow) =>
    setWheelsets((rows) => rows.map((row, i) => (i === index ? change(row) : row)));
  /** An import answers late: by then rows may have moved, so its row is found by its key. */
  const changeRowByKey = (key: number, change: (row: WheelsetRow) => WheelsetRow) =>
    setWheelsets((rows) => rows.map((row) => (row.key === key ? change(row) : row)));
  const rowSlot = (key: number) => `wheelset-${key}`;

  /**
   * The vehicle's template: VALID sets the number and, for a wagon with wheelsets, replaces the outgoing wheelset
   * list with one row per wheelset of the file. A number changed by hand afterwards keeps the template (the typed
   * number wins on the server) and its check mark; only another file or another order type drops it.
   */
  const importVehicle = (file: File) => {
    const wagon = isWagon;
    void imports.start('vehicle', file, type, (state) => {
      setVehicleTemplate(state);
      if (state.kind !== 'valid') return;
      if (state.number) {
        setNumber(checked(state.number));
        unrefuse('number');
      }
      if (wagon && state.subNumbers.length > 0) {
        for (const row of currentRows.current) imports.cancel(rowSlot(row.key));
        setWheelsets(wheelsetNumbersOf(state.subNumbers, WHEELSETS_PER_WAGON).map((digits) => newRow(digits)));
        unrefuseRows();
      }
    });
  };

  /** A wheelset row's template: VALID sets the row's number; the row keeps the asset id as the vehicle does. */
  const importWheelset = (rowKey: number, file: File) =>
    void imports.start(rowSlot(rowKey), file, ORDER_TYPES.WHEELSET, (state) => {
      changeRowByKey(rowKey, (row) => ({
        ...row,
        ...(state.kind === 'valid' && state.number ? checked(state.number) : {}),
        template: state,
      }));
      // A server mark on the row was about its old number.
      const index = currentRows.current.findIndex((row) => row.key === rowKey);
      if (state.kind === 'valid' && state.number && index >= 0) unrefuse(`wheelset-${index}`);
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid || busy || importing) return;
    setBusy(true);
    setServerMessage(null);
    const maintenanceNumber = digitsOf(number.value);
    const vehicleAsset = assetIdOf(vehicleTemplate);
    const request: CreateOrderRequest = {
      id: orderId,
      dv: deviceId(versdb),
      type,
      contractor: chosen?.value ?? '',
      externalOrderNumber: external.trim(),
      maintenanceNumber,
      ...(isWagon
        ? {
            wagon: {
              number: maintenanceNumber,
              ...(vehicleAsset ? { assetId: vehicleAsset } : {}),
              wheelsetsOutgoing: wheelsets.map((row) => {
                const assetId = assetIdOf(row.template);
                return { number: digitsOf(row.value), ...(assetId ? { assetId } : {}) };
              }),
            },
          }
        : { wheelset: { number: maintenanceNumber, ...(vehicleAsset ? { assetId: vehicleAsset } : {}) } }),
    };
    try {
      const order = await call('orders', orderSchema, { method: 'POST', body: request, handles: HANDLED });
      notifications.show('orders.add.created', 'success', { number: order.number });
      navigate('/orders');
    } catch (error) {
      // No network or a server fault (docs/requirements/sync.md#order-sync-flag): the order is
      // kept on this device with sync flag 0 and sent by the scheduler.
      if (error instanceof ApiFailure && (error.status === 0 || error.status >= 500)) {
        try {
          await createOrderLocally(versdb, { ...request, id: orderId });
          notifications.show('orders.add.savedLocally', 'info');
          navigate('/orders');
          return;
        } catch (local) {
          console.error('order not stored locally', local);
        }
      }
      // Everything typed stays in the form.
      setBusy(false);
      if (!(error instanceof ApiFailure)) {
        notifications.show('common.saveError', 'error');
        return;
      }
      if (!(HANDLED as readonly number[]).includes(error.status)) return; // the global reaction told the user
      const messageKey = i18n.exists(`errors.${error.code}`) ? `errors.${error.code}` : 'common.saveError';
      if (error.status === 400) {
        const marks = new Map<FieldKey, string>();
        for (const path of error.fields) {
          const field = fieldOf(path);
          if (field) marks.set(field, error.code === 'CHECK_NUMBER' ? 'errors.CHECK_NUMBER' : 'orders.add.refused');
        }
        setRefused(marks);
      }
      setServerMessage(messageKey);
      notifications.show(messageKey, 'error');
    }
  };

  const numberHelp = (field: NumberField, key: FieldKey, hint?: string) => {
    if (field.wrong) return t('errors.CHECK_NUMBER');
    const mark = refused.get(key);
    return mark ? t(mark) : hint;
  };

  const numberInput = (testId: string) => ({
    'data-testid': testId,
    maxLength: NUMBER_MAX_LENGTH,
    inputMode: 'numeric' as const,
    autoComplete: 'off',
    spellCheck: false,
  });

  return (
    <Paper
      component="form"
      variant="outlined"
      noValidate
      onSubmit={(e: FormEvent) => void submit(e)}
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
            value={type}
            onChange={(_, next: OrderType | null) => {
              if (!next) return;
              if (next === type) return;
              setType(next);
              // A template is for one order type.
              imports.cancel('vehicle');
              setVehicleTemplate(IDLE);
            }}
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
          value={number.value}
          required
          onChange={(e) => {
            setNumber({ value: e.target.value, wrong: false });
            unrefuse('number');
          }}
          onBlur={() => setNumber((current) => checked(current.value))}
          error={number.wrong || refused.has('number')}
          helperText={numberHelp(number, 'number', t('orders.add.numberHint'))}
          fullWidth
          slotProps={{ htmlInput: numberInput('order-number') }}
          sx={{ '& input': { fontSize: '1.25rem', letterSpacing: '0.04em' } }}
        />
        <Box sx={{ mt: -1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <XmlImportButton
              key={type}
              state={vehicleTemplate}
              onPick={importVehicle}
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
            options={contractorOptions}
            value={chosen}
            onChange={(_, option) => {
              setContractor(option);
              unrefuse('contractor');
            }}
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
            value={external}
            onChange={(e) => {
              setExternal(e.target.value);
              unrefuse('external');
            }}
            error={refused.has('external')}
            helperText={refused.has('external') ? t(refused.get('external')!) : undefined}
            fullWidth
            slotProps={{
              htmlInput: { 'data-testid': 'order-external', maxLength: EXTERNAL_MAX_LENGTH, autoComplete: 'off' },
            }}
          />
        </Box>

        {isWagon && (
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Typography
              component="legend"
              variant="subtitle1"
              sx={{ fontWeight: 600, p: 0, mb: 0.5 }}
              data-testid="wheelsets-title"
            >
              {t('orders.add.wheelsets')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('orders.add.wheelsetsHint', { min: WHEELSETS_PER_WAGON.min, max: WHEELSETS_PER_WAGON.max })}
            </Typography>
            <Stack spacing={2}>
              {wheelsets.map((row, index) => {
                const key: FieldKey = `wheelset-${index}`;
                const position = index + 1;
                const removeLabel = t('orders.add.removeWheelset', { position });
                return (
                  <Box key={row.key}>
                    {/* On a phone the number takes the whole line; import and remove go below it. */}
                    <Box
                      sx={{
                        display: 'flex',
                        gap: 1,
                        alignItems: 'flex-start',
                        flexWrap: { xs: 'wrap', sm: 'nowrap' },
                      }}
                    >
                      <TextField
                        label={t('orders.add.wheelset', { position })}
                        value={row.value}
                        onChange={(e) => {
                          changeRow(index, (r) => ({ ...r, value: e.target.value, wrong: false }));
                          unrefuse(key);
                        }}
                        onBlur={() => changeRow(index, (r) => ({ ...r, ...checked(r.value) }))}
                        error={row.wrong || refused.has(key)}
                        helperText={numberHelp(row, key)}
                        fullWidth
                        slotProps={{ htmlInput: numberInput(`wheelset-number-${index}`) }}
                        sx={{ flex: { xs: '1 1 100%', sm: '1 1 auto' } }}
                      />
                      <XmlImportButton
                        state={row.template}
                        onPick={(file) => importWheelset(row.key, file)}
                        testId={`wheelset-import-${index}`}
                        label={t('orders.import.wheelset', { position })}
                      />
                      <Tooltip title={removeLabel}>
                        {/* A disabled button gets no pointer events: the span keeps the tooltip. */}
                        <span>
                          <IconButton
                            size="large"
                            color="error"
                            disabled={wheelsets.length <= WHEELSETS_PER_WAGON.min}
                            onClick={() => {
                              imports.cancel(rowSlot(row.key));
                              focusAfterRemoval.current = index;
                              setWheelsets((rows) => rows.filter((_, i) => i !== index));
                              unrefuseRows();
                            }}
                            ref={(button) => {
                              removeButtons.current[index] = button;
                            }}
                            aria-label={removeLabel}
                            data-testid={`wheelset-remove-${index}`}
                            sx={{ width: TOUCH, height: TOUCH }}
                          >
                            <RemoveCircleOutlineIcon />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </Box>
                    <XmlImportMessage state={row.template} testId={`wheelset-import-${index}`} />
                  </Box>
                );
              })}
            </Stack>
            <Button
              ref={addButton}
              variant="outlined"
              startIcon={<AddIcon />}
              disabled={wheelsets.length >= WHEELSETS_PER_WAGON.max}
              onClick={() => {
                setWheelsets((rows) => [...rows, newRow()]);
                unrefuseRows();
              }}
              data-testid="wheelset-add"
              sx={{ mt: 2, minHeight: TOUCH, width: { xs: '100%', sm: 'auto' } }}
            >
              {t('orders.add.addWheelset')}
            </Button>
          </Box>
        )}

        {serverMessage && (
          <Alert severity="error" data-testid="order-save-error" onClose={() => setServerMessage(null)}>
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
            disabled={invalid || busy || importing}
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
