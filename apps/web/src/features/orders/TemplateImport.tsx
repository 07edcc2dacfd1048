import type { OrderType } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportOutcome, importTemplate } from './xml-import.ts';

type ImportState =
  { kind: 'idle' } | { kind: 'busy' } | { kind: 'valid'; filename: string } | { kind: 'invalid'; text: string };

export interface TemplateImport {
  state: ImportState;
  input: RefObject<HTMLInputElement | null>;
  pick: (file: File | undefined) => Promise<void>;
}

/**
 * One XML template import (orders §2 "Add order"): upload, check every 2 s, then VALID runs `onValid`; INVALID
 * keeps the reason and clears the file input, so the same file can be picked again after fixing it.
 */
export function useTemplateImport(
  orderType: OrderType,
  onValid: (outcome: Extract<ImportOutcome, { status: 'VALID' }>) => void,
): TemplateImport {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<ImportState>({ kind: 'idle' });
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
      outcome = await importTemplate(file, orderType, controller.signal);
    } catch {
      return; // given up: another file was picked or the row is gone
    }
    if (outcome.status === 'VALID') {
      setState({ kind: 'valid', filename: file.name });
      onValid(outcome);
      return;
    }
    if (input.current) input.current.value = '';
    const text =
      outcome.status === 'FAILED'
        ? t(outcome.errorKey)
        : [t(`orders.import.${outcome.messageKey ?? 'NOT_VALID_XML'}`), outcome.message].filter(Boolean).join(': ');
    setState({ kind: 'invalid', text });
  };
  return { state, input, pick };
}

/** The "Import XML" button and, beside it in a slot of fixed width, the spinner, green check or red alert. */
export function ImportControl(props: { imp: TemplateImport; testId: string; label: string }) {
  const { t } = useTranslation();
  const { state, input, pick } = props.imp;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexShrink: 0 }}>
      <Button
        component="label"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        disabled={state.kind === 'busy'}
        sx={{ minHeight: 56, minWidth: 56, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}
        aria-label={props.label}
      >
        {/* On a phone the icon alone: the number field needs the width. */}
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {t('orders.import.button')}
        </Box>
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
        sx={{ width: 28, height: 28, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        {state.kind === 'busy' && <CircularProgress size={24} aria-label={t('orders.import.checking')} />}
        {state.kind === 'valid' && (
          <CheckCircleIcon color="success" titleAccess={`${t('orders.import.valid')}: ${state.filename}`} />
        )}
        {state.kind === 'invalid' && <ErrorIcon color="error" titleAccess={t('orders.import.invalid')} />}
      </Box>
    </Box>
  );
}

/** Why a template was refused, under the field it belongs to. */
export function ImportMessage(props: { imp: TemplateImport; testId: string }) {
  const { state } = props.imp;
  if (state.kind !== 'invalid') return null;
  return (
    <Typography
      variant="body2"
      color="error"
      role="alert"
      data-testid={`${props.testId}-message`}
      sx={{ overflowWrap: 'anywhere', mt: 0.5 }}
    >
      {state.text}
    </Typography>
  );
}

/** A template import for a part of a form that is rendered in a list (a hook cannot be called in a loop). */
export function WithTemplateImport(props: {
  orderType: OrderType;
  onValid: (outcome: Extract<ImportOutcome, { status: 'VALID' }>) => void;
  children: (imp: TemplateImport) => ReactNode;
}) {
  const imp = useTemplateImport(props.orderType, props.onValid);
  return props.children(imp);
}
