import {
  type Language,
  type SignOffCheck,
  fieldText,
  formatDateTime,
  formatSignOffCode,
  formatVehicleNumber,
  normalizeSignOffCode,
  resolveKey,
} from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { fieldLabelKey } from '../orders/editor/labels.ts';
import { checkSignOff } from './sign-off-api.ts';

type Check = { kind: 'loading' } | { kind: 'found'; check: SignOffCheck } | { kind: 'unknown' } | { kind: 'failed' };

/**
 * `/check/:code?` (issue 21): whoever holds a printed release to service types its code (or scans its QR code, which
 * opens this page) and sees whether the order still holds the values that were signed, and if not, what changed.
 * Open without signing in; it asks the server, so it needs a connection.
 */
export default function CheckPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { code: routeCode = '' } = useParams();
  const code = normalizeSignOffCode(routeCode);
  const [typed, setTyped] = useState(code ? formatSignOffCode(code) : routeCode);
  const [state, setState] = useState<Check | null>(null);

  useEffect(() => {
    void loadFeatureCatalogue('catalogue');
  }, []);
  useEffect(() => {
    if (!code) return setState(null);
    let live = true;
    setState({ kind: 'loading' });
    checkSignOff(code).then(
      (check) => live && setState(check ? { kind: 'found', check } : { kind: 'unknown' }),
      () => live && setState({ kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [code]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normal = normalizeSignOffCode(typed);
    if (normal) void navigate(`/check/${normal}`);
  };
  const typedInvalid = typed.trim() !== '' && normalizeSignOffCode(typed) === null;

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', p: { xs: 1, sm: 2 } }}>
      <Stack spacing={2} data-testid="check-page">
        <Typography variant="h5" component="h1">
          {t('signOff.check.title')}
        </Typography>
        <Paper component="form" onSubmit={submit} sx={{ p: 2 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('signOff.check.intro')}
          </Typography>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <TextField
              label={t('signOff.check.codeLabel')}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              error={typedInvalid}
              helperText={typedInvalid ? t('signOff.check.codeInvalid') : 'XXXX-XXXX-XXXX-XXXX'}
              sx={{ flex: '1 1 260px' }}
              slotProps={{ htmlInput: { 'data-testid': 'check-code', autoCapitalize: 'characters' } }}
            />
            <Button type="submit" variant="contained" sx={{ minHeight: 56 }} data-testid="check-submit">
              {t('signOff.check.submit')}
            </Button>
          </Stack>
        </Paper>
        {state?.kind === 'loading' && <CircularProgress aria-label={t('signOff.check.submit')} />}
        {state?.kind === 'unknown' && (
          <Alert severity="warning" data-testid="check-unknown">
            {t('signOff.check.notFound')}
          </Alert>
        )}
        {state?.kind === 'failed' && (
          <Alert severity="error" data-testid="check-failed">
            {t('signOff.check.error')}
          </Alert>
        )}
        {state?.kind === 'found' && <CheckResult check={state.check} />}
      </Stack>
    </Box>
  );
}

function CheckResult({ check }: { check: SignOffCheck }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const { signOff } = check;
  const text = (key: string, value: unknown) => {
    if (value === null || value === undefined) return '–';
    const field = resolveKey(check.orderType, key)?.field;
    const stored = Array.isArray(value) ? value.join(', ') : String(value);
    if (typeof value === 'boolean') return t(value ? 'signOff.check.yes' : 'signOff.check.no');
    return field ? fieldText(field.kind, stored, language) : stored;
  };
  const label = (key: string) => {
    const field = resolveKey(check.orderType, key)?.field;
    return field ? t(fieldLabelKey(field)) : key;
  };
  return (
    <Stack spacing={2} data-testid="check-result" data-state={check.state}>
      <Alert severity={check.state === 'MATCHES' ? 'success' : 'error'} variant="filled" data-testid="check-state">
        {t(`signOff.check.state.${check.state}`)}
      </Alert>
      {signOff.supersededAt && (
        <Alert severity="warning" data-testid="check-superseded">
          {t('signOff.check.superseded', { time: formatDateTime(signOff.supersededAt, language) })}
        </Alert>
      )}
      <Paper sx={{ p: 2 }}>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, m: 0 }}
        >
          {(
            [
              ['signOff.check.order', check.orderNumber || '–'],
              ['signOff.check.vehicle', check.vehicleNumber ? formatVehicleNumber(check.vehicleNumber) : '–'],
              ['signOff.check.workshop', check.workshop],
              ['signOff.check.meaning', t(`signOff.meaning.${signOff.meaning}`)],
              [
                'signOff.check.signer',
                `${signOff.signer} (${t(`signOff.role.${signOff.role}`, { defaultValue: signOff.role })})`,
              ],
              ['signOff.check.signedAt', formatDateTime(signOff.signedAt, language)],
              ['signOff.check.code', formatSignOffCode(signOff.code)],
              ['signOff.check.hash', signOff.contentHash],
            ] as const
          ).map(([key, value]) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary" sx={{ mt: 1 }}>
                {t(key)}
              </Typography>
              <Typography component="dd" sx={{ m: 0, mt: { sm: 1 }, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
      {check.changes.length > 0 && (
        <Paper sx={{ p: 2, overflowX: 'auto' }}>
          <Typography variant="subtitle1" component="h2">
            {t('signOff.check.changes', { count: check.changes.length })}
          </Typography>
          <Table size="small" data-testid="check-changes">
            <TableHead>
              <TableRow>
                <TableCell>{t('signOff.check.field')}</TableCell>
                <TableCell>{t('signOff.check.signedValue')}</TableCell>
                <TableCell>{t('signOff.check.nowValue')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {check.changes.map((change) => (
                <TableRow key={change.key} data-testid="check-change">
                  <TableCell>{label(change.key)}</TableCell>
                  <TableCell>{text(change.key, change.signed)}</TableCell>
                  <TableCell>{text(change.key, change.now)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}
