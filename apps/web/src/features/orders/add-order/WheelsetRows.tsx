import { WHEELSETS_PER_WAGON, earlierSameNumbers } from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ScanButton } from '../../scan/ScanButton.tsx';
import { XmlImportButton, XmlImportMessage } from '../XmlImportButton.tsx';
import { type FieldKey, NUMBER_MAX_LENGTH, type WheelsetRow, numberMessageKey, wheelsetKey } from './add-order-form.ts';

/** Big targets for gloved hands. */
export const TOUCH = 56;

/** The input of a vehicle number: digits on a touch keyboard, nothing to complete or spell-check. */
export const numberInputProps = (testId: string) => ({
  'data-testid': testId,
  maxLength: NUMBER_MAX_LENGTH,
  inputMode: 'numeric' as const,
  autoComplete: 'off',
  spellCheck: false,
});

/**
 * The outgoing wheelsets of a new wagon order (docs/requirements/validation.md#wheelsets-per-wagon): one row per
 * wheelset with its number, its XML template and its remove button, and "add" below.
 */
export function WheelsetRows(props: {
  rows: readonly WheelsetRow[];
  refused: ReadonlyMap<FieldKey, string>;
  onChange: (index: number, value: string) => void;
  onCheck: (index: number) => void;
  onImport: (rowKey: number, file: File) => void;
  onRemove: (index: number) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const { rows, refused } = props;
  // A wheelset is mounted at one position: a number that came in an earlier row is marked where it comes again.
  const earlier = earlierSameNumbers(rows.map((row) => row.value));
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
    const next = removeButtons.current[Math.min(index, rows.length - 1)];
    (next && !next.disabled ? next : addButton.current)?.focus();
  }, [rows]);

  return (
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
        {rows.map((row, index) => {
          const key = wheelsetKey(index);
          const position = index + 1;
          const removeLabel = t('orders.add.removeWheelset', { position });
          const ownMessage = numberMessageKey(row, refused.get(key));
          const repeated = !ownMessage && earlier[index]! >= 0;
          const message = ownMessage
            ? t(ownMessage)
            : repeated
              ? t('orders.add.wheelsetRepeated', { position: earlier[index]! + 1 })
              : undefined;
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
                  onChange={(e) => props.onChange(index, e.target.value)}
                  onBlur={() => props.onCheck(index)}
                  error={row.wrong || refused.has(key) || repeated}
                  helperText={message}
                  fullWidth
                  slotProps={{
                    htmlInput: numberInputProps(`wheelset-number-${index}`),
                    // A number read by the camera goes through the row's own rules, as if typed and left.
                    input: {
                      endAdornment: (
                        <ScanButton
                          field={t('orders.add.wheelset', { position })}
                          testId={`wheelset-scan-${index}`}
                          onNumber={(digits) => {
                            props.onChange(index, digits);
                            props.onCheck(index);
                          }}
                        />
                      ),
                    },
                  }}
                  sx={{ flex: { xs: '1 1 100%', sm: '1 1 auto' } }}
                />
                <XmlImportButton
                  state={row.template}
                  onPick={(file) => props.onImport(row.key, file)}
                  testId={`wheelset-import-${index}`}
                  label={t('orders.import.wheelset', { position })}
                />
                <Tooltip title={removeLabel}>
                  {/* A disabled button gets no pointer events: the span keeps the tooltip. */}
                  <span>
                    <IconButton
                      size="large"
                      color="error"
                      disabled={rows.length <= WHEELSETS_PER_WAGON.min}
                      onClick={() => {
                        focusAfterRemoval.current = index;
                        props.onRemove(index);
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
        disabled={rows.length >= WHEELSETS_PER_WAGON.max}
        onClick={props.onAdd}
        data-testid="wheelset-add"
        sx={{ mt: 2, minHeight: TOUCH, width: { xs: '100%', sm: 'auto' } }}
      >
        {t('orders.add.addWheelset')}
      </Button>
    </Box>
  );
}
