import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useTranslation } from 'react-i18next';
import { useThemeChoice } from './theme-context.ts';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { dark, setDark } = useThemeChoice();
  return (
    <FormControlLabel
      control={
        <Switch
          checked={dark}
          onChange={(event) => setDark(event.target.checked)}
          slotProps={{ input: { 'aria-label': t('settings.darkMode'), 'data-testid': 'theme-switch' } as object }}
        />
      }
      label={t('settings.darkMode')}
    />
  );
}
