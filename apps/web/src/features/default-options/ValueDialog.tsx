import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ValueRow, isRowComplete } from './value-rows.ts';

export type EditedValue = Pick<ValueRow, 'rowKey' | 'id' | 'value' | 'text' | 'global'>;

/** Adds or edits one value: key and display text, both required. */
export function ValueDialog(props: {
  initial: EditedValue;
  onSave: (value: EditedValue) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(props.initial);
  const [touched, setTouched] = useState({ value: false, text: false });
  const complete = isRowComplete(draft);
  const required = (field: 'value' | 'text') => touched[field] && draft[field].trim() === '';
  return (
    <Dialog open onClose={props.onCancel} maxWidth="sm" fullWidth data-testid="value-dialog">
      <DialogTitle>
        {props.initial.id === null && !props.initial.value
          ? t('defaultOptions.addValue')
          : t('defaultOptions.editValue')}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('defaultOptions.valueKey')}
            value={draft.value}
            required
            autoFocus
            error={required('value')}
            helperText={required('value') ? t('validation.required') : ' '}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
            onBlur={() => setTouched({ ...touched, value: true })}
            slotProps={{ htmlInput: { 'data-testid': 'value-key' } }}
          />
          <TextField
            label={t('defaultOptions.valueText')}
            value={draft.text}
            required
            error={required('text')}
            helperText={required('text') ? t('validation.required') : ' '}
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
            onBlur={() => setTouched({ ...touched, text: true })}
            slotProps={{ htmlInput: { 'data-testid': 'value-text' } }}
          />
          <FormControlLabel
            control={
              <Checkbox checked={draft.global} onChange={(e) => setDraft({ ...draft, global: e.target.checked })} />
            }
            label={t('defaultOptions.global')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!complete}
          onClick={() => props.onSave({ ...draft, value: draft.value.trim(), text: draft.text.trim() })}
          data-testid="value-save"
        >
          {t('common.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
