import { AUDIT_PAGE_SIZE, type AuditEntry, formatDateTime, type Language } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { fetchAuditTrail, handledHere } from './workshop-api.ts';

/** Labels of the fields an entry may name; the workshop's own fields have theirs in workshop.fields. */
const AUDIT_FIELDS = new Set(['firstName', 'lastName', 'roles', 'enabled', 'languageCode', 'address', 'value', 'text']);
const WORKSHOP_FIELDS = new Set(['name', 'countryCode', 'email', 'phone', 'fax', 'revNr', 'siteId', 'addLastModifier']);

function fieldLabel(t: TFunction, key: string): string {
  if (WORKSHOP_FIELDS.has(key)) return t(`workshop.fields.${key}`);
  if (AUDIT_FIELDS.has(key) || key === 'global' || key === 'bytes') return t(`workshop.audit.field.${key}`);
  return key;
}

function valueText(t: TFunction, key: string, value: unknown): string {
  if (typeof value === 'boolean') return t(value ? 'workshop.audit.yes' : 'workshop.audit.no');
  if (key === 'roles' && Array.isArray(value)) return value.map((role) => t(`roles.${String(role)}`)).join(', ');
  if (value === null || value === undefined || value === '') return '–';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** "Roles: Worker → Wagon quality inspector; Active: yes → no" for what an entry says changed. */
export function detailsText(t: TFunction, details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => {
      const change = value as { from?: unknown; to?: unknown } | null;
      const isChange = typeof change === 'object' && change !== null && 'to' in change;
      const shown = isChange
        ? `${valueText(t, key, change.from)} → ${valueText(t, key, change.to)}`
        : valueText(t, key, value);
      return `${fieldLabel(t, key)}: ${shown}`;
    })
    .join('; ');
}

/**
 * The workshop's audit trail (docs/security.md#audit-trail): who changed what in its administration, and failed
 * sign-ins, newest first, a page at a time. Read-only: entries cannot be changed.
 */
export function AuditTrail({ workshopId }: { workshopId: number }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (before?: number) => {
      setBusy(true);
      try {
        const page = await fetchAuditTrail(workshopId, before);
        setEntries((shown) => (before ? [...(shown ?? []), ...page] : page));
        setMore(page.length === AUDIT_PAGE_SIZE);
        setFailed(false);
      } catch (error) {
        setFailed(true);
        if (handledHere(error)) notifications.show('workshop.audit.loadError', 'error');
      } finally {
        setBusy(false);
      }
    },
    [workshopId],
  );

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Box data-testid="audit-trail">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('workshop.audit.hint')}
      </Typography>
      {failed && <Alert severity="error">{t('workshop.audit.loadError')}</Alert>}
      {!entries && !failed && <CircularProgress size={28} aria-label={t('app.loading')} />}
      {entries?.length === 0 && <Typography color="text.secondary">{t('workshop.audit.empty')}</Typography>}
      {entries && entries.length > 0 && (
        <List dense disablePadding>
          {entries.map((entry) => {
            const details = detailsText(t, entry.details);
            return (
              <ListItem key={entry.id} divider disableGutters data-testid="audit-entry">
                <ListItemText
                  primary={t(`workshop.audit.action.${entry.action}`, { target: entry.target })}
                  secondary={
                    <>
                      {t('workshop.audit.byFrom', {
                        actor: entry.actor,
                        time: formatDateTime(entry.at, language),
                        address: entry.address,
                      })}
                      {details && (
                        <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                          {details}
                        </Box>
                      )}
                    </>
                  }
                />
              </ListItem>
            );
          })}
        </List>
      )}
      {more && entries && (
        <Button
          sx={{ mt: 1, minHeight: 48 }}
          disabled={busy}
          onClick={() => void load(entries.at(-1)?.id)}
          data-testid="audit-older"
        >
          {t('workshop.audit.older')}
        </Button>
      )}
    </Box>
  );
}
