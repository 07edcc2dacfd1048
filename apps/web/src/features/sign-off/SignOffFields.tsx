import { type Language, type OrderType, SIGN_OFF_MEANINGS, type SignOffMeaning } from '@vers/domain';
import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tooManyAttempts } from '../auth/too-many-attempts.ts';
import { missingItemLabel } from './missing-item.ts';
import { type SignOffOutcome, signOffOrder } from './sign-off-api.ts';

export interface SignOffInput {
  meaning: SignOffMeaning;
  password: string;
}

/**
 * The sign-off's part of a dialog: what the signer states, their password again, and why the last try failed. The
 * state lives in the dialog (`useSignOff`), so that the status dialog and the documents page share it.
 */
export function SignOffFields(props: {
  state: ReturnType<typeof useSignOff>;
  orderType: OrderType;
  /** A fixed meaning (the documents page signs a release to service) hides the choice. */
  fixedMeaning?: SignOffMeaning;
  online: boolean;
}) {
  const { t } = useTranslation();
  const { input, setInput, outcome } = props.state;
  // The answer comes below the password, under the fold of a dialog on a tablet: each new one is scrolled into view,
  // so that a refusal is seen where the Sign button was pressed. A block body: Chromium's scrollIntoView returns a
  // promise, which React would take for the effect's cleanup and call.
  const outcomeShown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void outcomeShown.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="sign-off-fields">
      {!props.fixedMeaning && (
        <FormControl>
          <FormLabel id="sign-off-meaning">{t('signOff.meaningLabel')}</FormLabel>
          <RadioGroup
            aria-labelledby="sign-off-meaning"
            value={input.meaning}
            onChange={(event) => setInput({ ...input, meaning: event.target.value as SignOffMeaning })}
          >
            {SIGN_OFF_MEANINGS.map((meaning) => (
              <FormControlLabel
                key={meaning}
                value={meaning}
                control={<Radio />}
                label={t(`signOff.meaning.${meaning}`)}
                data-testid={`sign-off-meaning-${meaning}`}
                sx={{ minHeight: 48 }}
              />
            ))}
          </RadioGroup>
        </FormControl>
      )}
      <Typography variant="body2" color="text.secondary">
        {t('signOff.hint')}
      </Typography>
      {!props.online || outcome?.kind === 'offline' ? (
        <Alert severity="warning" data-testid="sign-off-offline">
          {t('signOff.needsConnection')}
        </Alert>
      ) : (
        <TextField
          type="password"
          label={t('signOff.password')}
          autoComplete="current-password"
          value={input.password}
          onChange={(event) => setInput({ ...input, password: event.target.value })}
          error={outcome?.kind === 'wrongPassword'}
          helperText={outcome?.kind === 'wrongPassword' ? t('signOff.wrongPassword') : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'sign-off-password' } }}
        />
      )}
      {outcome && (
        <div ref={outcomeShown}>
          <OutcomeMessage outcome={outcome} orderType={props.orderType} />
        </div>
      )}
    </Stack>
  );
}

/** The refusals whose own text tells the signer what to do; any other says the sign-off was not recorded. */
const REFUSALS_SAID = new Set(['NOT_DONE', 'WHEELSET_MOUNTED_TWICE']);

function OutcomeMessage({ outcome, orderType }: { outcome: SignOffOutcome; orderType: OrderType }) {
  const { t, i18n } = useTranslation();
  switch (outcome.kind) {
    case 'incomplete':
      return (
        <Alert severity="error" data-testid="sign-off-incomplete">
          {t('signOff.incomplete')}
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {outcome.fields.map((key) => (
              <li key={key} data-testid="sign-off-missing">
                {missingItemLabel(orderType, key, t)}
              </li>
            ))}
          </ul>
        </Alert>
      );
    case 'throttled': {
      const message = tooManyAttempts(outcome.failure, (i18n.resolvedLanguage ?? 'de') as Language);
      return (
        <Alert severity="error" data-testid="sign-off-error">
          {t(message.key, message.values)}
        </Alert>
      );
    }
    case 'refused':
      return (
        <Alert severity="error" data-testid="sign-off-error">
          {t(REFUSALS_SAID.has(outcome.code) ? `errors.${outcome.code}` : 'signOff.failed')}
        </Alert>
      );
    default:
      return null;
  }
}

/** A sign-off in a dialog: the typed input, the last outcome, and the call. */
export function useSignOff(orderId: string, initialMeaning: SignOffMeaning) {
  const [input, setInput] = useState<SignOffInput>({ meaning: initialMeaning, password: '' });
  const [outcome, setOutcome] = useState<SignOffOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const sign = async (status?: 'DONE' | 'DONE_ARCHIVED'): Promise<SignOffOutcome> => {
    setBusy(true);
    try {
      const result = await signOffOrder(orderId, { ...input, ...(status ? { status } : {}) });
      setOutcome(result);
      return result;
    } finally {
      setBusy(false);
    }
  };
  return { input, setInput, outcome, busy, sign, ready: input.password !== '' };
}
