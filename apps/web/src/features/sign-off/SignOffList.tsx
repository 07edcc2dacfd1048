import { type Language, type SignOff, formatDateTime, formatSignOffCode, signOffCheckPath } from '@vers/domain';
import VerifiedIcon from '@mui/icons-material/VerifiedOutlined';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * An order's sign-offs, newest first: what was stated, by whom in which role and when, the check code as printed
 * (linked to its check page) and whether it is current or was superseded by a reopening. The workshop's documents page
 * and the holder's order view show them alike.
 */
export function SignOffList({ signOffs }: { signOffs: readonly SignOff[] }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return (
    <List>
      {[...signOffs].reverse().map((row) => (
        <ListItem
          key={row.id}
          divider
          data-testid="sign-off-row"
          data-meaning={row.meaning}
          data-superseded={row.supersededAt !== null}
          data-code={row.code}
          sx={{ gap: 1, flexWrap: 'wrap', px: 0 }}
        >
          <ListItemText
            sx={{ flex: '1 1 260px', minWidth: 0 }}
            primary={t(`signOff.meaning.${row.meaning}`)}
            secondary={
              <>
                {t('signOff.card.by', {
                  signer: row.signer,
                  role: t(`signOff.role.${row.role}`, { defaultValue: row.role }),
                  time: formatDateTime(row.signedAt, language),
                })}
                <br />
                <Link
                  component={RouterLink}
                  to={signOffCheckPath(row.code)}
                  data-testid="sign-off-code"
                  sx={{ display: 'inline-block', py: 1, fontFamily: 'monospace', fontSize: '0.95rem' }}
                >
                  {t('signOff.card.code', { code: formatSignOffCode(row.code) })}
                </Link>
              </>
            }
            slotProps={{ secondary: { component: 'div', sx: { overflowWrap: 'anywhere' } } }}
          />
          <Chip
            size="small"
            color={row.supersededAt ? 'default' : 'success'}
            icon={row.supersededAt ? undefined : <VerifiedIcon />}
            data-testid="sign-off-state"
            label={
              row.supersededAt
                ? t('signOff.card.superseded', { time: formatDateTime(row.supersededAt, language) })
                : t('signOff.card.valid')
            }
          />
        </ListItem>
      ))}
    </List>
  );
}
