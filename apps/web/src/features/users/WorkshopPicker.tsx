import type { WorkshopSummary } from '@vers/domain';
import SettingsIcon from '@mui/icons-material/Settings';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The choice of the users of no workshop (the system's own), beside the workshops' ids. */
const NONE = 'none';

/** The workshop a system admin picked on the users page, from its `?workshop=` parameter; null: no workshop. */
export function pickedWorkshop(params: URLSearchParams): number | null {
  const id = Number(params.get('workshop'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export interface WorkshopPickerProps {
  /** Every workshop; null while loading. */
  workshops: WorkshopSummary[] | null;
  failed: boolean;
  value: number | null;
  onChange: (workshopId: number | null) => void;
  onRetry: () => void;
}

const label = (workshop: WorkshopSummary) =>
  workshop.siteId ? `${workshop.name} (${workshop.siteId})` : workshop.name;

/**
 * A system admin's choice of the workshop whose users the page shows and creates (issue 20), with "no workshop" for
 * the system's own users, and a way to that workshop's settings.
 */
export function WorkshopPicker({ workshops, failed, value, onChange, onRetry }: WorkshopPickerProps) {
  const { t } = useTranslation();
  if (failed) {
    return (
      <Alert
        severity="error"
        data-testid="users-workshops-error"
        sx={{ flex: '1 1 320px' }}
        action={
          <Button color="inherit" onClick={onRetry}>
            {t('users.retry')}
          </Button>
        }
      >
        {t('users.workshopsLoadFailed')}
      </Alert>
    );
  }
  // Until the list is there (or when the id in the address is none of its workshops), "no workshop" is not offered
  // as if chosen: the field stays empty.
  const known = value === null || (workshops ?? []).some((w) => w.id === value);
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flex: '1 1 320px', flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={t('users.workshopPick')}
        value={workshops && known ? String(value ?? NONE) : ''}
        onChange={(event) => onChange(event.target.value === NONE ? null : Number(event.target.value))}
        disabled={workshops === null}
        sx={{ flex: '1 1 260px', maxWidth: { sm: 420 } }}
        slotProps={{
          htmlInput: { 'data-testid': 'users-workshop' },
          select: { MenuProps: { sx: { maxHeight: 480 } } },
        }}
        data-testid="users-workshop-field"
      >
        <MenuItem value={NONE} data-testid="users-workshop-none">
          {t('users.noWorkshopOption')}
        </MenuItem>
        {(workshops ?? []).map((workshop) => (
          <MenuItem key={workshop.id} value={String(workshop.id)} data-testid={`users-workshop-${workshop.id}`}>
            {label(workshop)}
          </MenuItem>
        ))}
      </TextField>
      {value !== null && known && workshops && (
        <Button
          component={Link}
          to={`/workshop/${value}`}
          startIcon={<SettingsIcon />}
          data-testid="users-workshop-settings"
        >
          {t('users.workshopSettings')}
        </Button>
      )}
    </Stack>
  );
}
