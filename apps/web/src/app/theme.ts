import { PRIMARY_COLOR, STORAGE_KEYS } from '@vers/domain';
import { createTheme } from '@mui/material/styles';
import { useCallback, useMemo, useState } from 'react';

export function buildTheme(dark: boolean) {
  return createTheme({
    palette: {
      mode: dark ? 'dark' : 'light',
      // In the dark theme the brand blue is too dark to read as text or icons; a lighter tint of it is used.
      primary: { main: dark ? '#6fa8d6' : PRIMARY_COLOR },
    },
    components: {
      // Large touch targets: the app is used on tablets, often with gloves.
      MuiButton: { defaultProps: { size: 'large' } },
      MuiListItemButton: { styleOverrides: { root: { minHeight: 52 } } },
    },
  });
}

/** The dark-mode choice, kept locally (administration §1). */
export function useDarkMode(): [boolean, (dark: boolean) => void] {
  const [dark, setDark] = useState(() => localStorage.getItem(STORAGE_KEYS.darkMode) === 'true');
  const choose = useCallback((value: boolean) => {
    localStorage.setItem(STORAGE_KEYS.darkMode, String(value));
    setDark(value);
  }, []);
  return [dark, choose];
}

export function useAppTheme(dark: boolean) {
  return useMemo(() => buildTheme(dark), [dark]);
}
