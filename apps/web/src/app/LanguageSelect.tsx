import { LANGUAGES, LANGUAGE_NAMES, type Language } from '@vers/domain';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../i18n/index.ts';

export function LanguageSelect({ size = 'medium' }: { size?: 'small' | 'medium' }) {
  const { t, i18n } = useTranslation();
  const value = (i18n.resolvedLanguage as Language | undefined) ?? currentLanguage();
  return (
    <FormControl fullWidth size={size}>
      <InputLabel id="language-label">{t('settings.language')}</InputLabel>
      <Select
        labelId="language-label"
        id="language-select"
        data-testid="language-select"
        label={t('settings.language')}
        value={value}
        onChange={(event) => void changeLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((language) => (
          <MenuItem key={language} value={language} lang={language} data-testid={`language-${language}`}>
            {LANGUAGE_NAMES[language]}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
