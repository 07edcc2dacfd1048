import type { OrderType } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportOutcome, importTemplate } from './xml-import.ts';

type State =
  { kind: 'idle' } | { kind: 'busy' } | { kind: 'valid'; filename: string } | { kind: 'invalid'; text: string };

/**
 * "Import XML" for the order's vehicle or one wheelset row: picks a file, uploads it, shows a spinner while the
 * server checks it, then a green check or a red alert with the reason (and the file input is cleared, so the
 * same file can be picked again after fixing it).
 */
export function XmlImportButton(props: {
  orderType: OrderType;
  testId: string;
  label: string;
  onValid: (outcome: Extract<ImportOutcome, { status: 'VALID' }>) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState({ kind: 'busy' });
    let outcome: ImportOutcome;
    try {
      outcome = await importTemplate(file, props.orderType, controller.signal);
    } catch {
      return; // given up: another file was picked or the row is gone
    }
    if (outcome.status === 'VALID') {
      setState({ kind: 'valid', filename: file.name });
      props.onValid(outcome);
      return;
    }
    if (input.current) input.current.value = '';
    const text =
      outcome.status === 'FAILED'
        ? t(outcome.errorKey)
        : [t(`orders.import.${outcome.messageKey ?? 'NOT_VALID_XML'}`), outcome.message].filter(Boolean).join(': ');
    setState({ kind: 'invalid', text });
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
      <Button
        component="label"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        disabled={state.kind === 'busy'}
        sx={{ minHeight: 56, whiteSpace: 'nowrap' }}
        aria-label={props.label}
      >
        {t('orders.import.button')}
        <input
          ref={input}
          hidden
          type="file"
          accept="application/xml,text/xml,.xml"
          data-testid={props.testId}
          onChange={(event) => void pick(event.target.files?.[0])}
        />
      </Button>
      <Box
        data-testid={`${props.testId}-state`}
        data-state={state.kind}
        sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}
      >
        {state.kind === 'busy' && <CircularProgress size={24} aria-label={t('orders.import.checking')} />}
        {state.kind === 'valid' && (
          <>
            <CheckCircleIcon color="success" titleAccess={t('orders.import.valid')} />
            <Typography variant="body2" noWrap>
              {state.filename}
            </Typography>
          </>
        )}
        {state.kind === 'invalid' && (
          <>
            <ErrorIcon color="error" titleAccess={t('orders.import.invalid')} />
            <Typography variant="body2" color="error" role="alert" sx={{ overflowWrap: 'anywhere' }}>
              {state.text}
            </Typography>
          </>
        )}
      </Box>
    </Box>
  );
}
