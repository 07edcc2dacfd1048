import { PRIMARY_COLOR, STORAGE_KEYS } from '@vers/domain';
import { autocompleteClasses } from '@mui/material/Autocomplete';
import { outlinedInputClasses } from '@mui/material/OutlinedInput';
import { createTheme } from '@mui/material/styles';
import { useCallback, useMemo, useState } from 'react';

/** The smallest control, in CSS pixels: Material's 48 (WCAG 2.5.5 asks for 44). */
export const TOUCH_TARGET = 48;

export function buildTheme(dark: boolean) {
  return createTheme({
    palette: {
      mode: dark ? 'dark' : 'light',
      // In the dark theme the brand blue is too dark to read as text or icons; a lighter tint of it is used.
      // Its dark shade (a contained button under the pointer) stays light enough for the dark text on it: MUI's own,
      // 30 % darker, gave 3.9:1 (axe, phone end-to-end test in the dark theme); this one gives 5.8:1.
      primary: dark ? { main: '#6fa8d6', dark: '#5a92c2' } : { main: PRIMARY_COLOR },
      // Text on a coloured background (filled alerts and snackbars, contained buttons, chips) picks white only when
      // white reaches WCAG AA's 4.5:1; MUI's default of 3 put white on the light info blue (3.9:1) and orange.
      contrastThreshold: 4.5,
    },
    components: {
      // The keyboard focus is a clear ring on every button, tab, menu entry, switch and checkbox: MUI's own marks
      // (a faint ripple, a 12 % tint) are hard to see, and the tint vanishes on the selected menu entry. Only the
      // keyboard shows it (Mui-focusVisible), a tap does not.
      MuiButtonBase: {
        styleOverrides: {
          root: ({ theme }) => ({
            '&.Mui-focusVisible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
          }),
        },
      },
      // Entries that fill the width of a scrolling panel: the ring inside them, where the panel does not cut it off.
      MuiListItemButton: {
        styleOverrides: { root: { minHeight: 52, '&.Mui-focusVisible': { outlineOffset: -2 } } },
      },
      MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: -2 } } } },
      MuiAlert: {
        styleOverrides: {
          // The close button is a full touch target: message, icon and button line up on its middle.
          root: ({ ownerState, theme }) => {
            // A filled alert (the snackbars) in the dark theme lies on the colour's dark shade, but MUI picks its
            // text against the main shade: white error text became black on dark red (3.8:1). The text is picked
            // against the shade it lies on.
            const colour = ownerState.color ?? ownerState.severity ?? 'success';
            const palette = theme.palette[colour];
            const filled =
              ownerState.variant === 'filled'
                ? { color: theme.palette.getContrastText(theme.palette.mode === 'dark' ? palette.dark : palette.main) }
                : {};
            return { alignItems: 'center', ...filled };
          },
          action: { paddingTop: 0 },
        },
      },
      // Large touch targets: the app is used on tablets, often with gloves. Every control is at least TOUCH_TARGET
      // square (e2e/tests/accessibility.test.ts measures the order editor); MUI's sizes stop at 42 (a large button,
      // a radio) or 40 (an icon button).
      MuiButton: { defaultProps: { size: 'large' }, styleOverrides: { root: { minHeight: TOUCH_TARGET } } },
      MuiIconButton: { styleOverrides: { root: { minWidth: TOUCH_TARGET, minHeight: TOUCH_TARGET } } },
      // Yes and no of the editor share a narrow column (a wheelset's chapters on a tablet): as wide as WCAG's 44.
      MuiToggleButton: { styleOverrides: { root: { minWidth: 44, minHeight: TOUCH_TARGET } } },
      MuiCheckbox: { styleOverrides: { root: { padding: (TOUCH_TARGET - 24) / 2 } } },
      MuiRadio: { styleOverrides: { root: { padding: (TOUCH_TARGET - 24) / 2 } } },
      // The switch's thumb (20) sits in a ButtonBase of TOUCH_TARGET; the root grows around it, the track (34 by 14)
      // stays centred in it.
      MuiSwitch: {
        styleOverrides: {
          root: { width: 34 + (TOUCH_TARGET - 14), height: TOUCH_TARGET, padding: (TOUCH_TARGET - 14) / 2 },
          switchBase: { padding: (TOUCH_TARGET - 20) / 2 },
        },
      },
      // The open and clear buttons at the end of a choice field are icon buttons as large as the others; the text
      // keeps clear of them. The text may then shrink to nothing (MUI keeps 30 px), so that a choice field still fits
      // the narrow incoming and outgoing columns of a wheelset's chapters on a tablet.
      MuiAutocomplete: {
        styleOverrides: {
          root: {
            [`& .${autocompleteClasses.inputRoot} .${autocompleteClasses.input}`]: { minWidth: 0 },
            [`& .${outlinedInputClasses.root}`]: {
              [`.${autocompleteClasses.hasPopupIcon}&, .${autocompleteClasses.hasClearIcon}&`]: {
                paddingRight: TOUCH_TARGET - 2 + 4 + 9,
              },
              [`.${autocompleteClasses.hasPopupIcon}.${autocompleteClasses.hasClearIcon}&`]: {
                paddingRight: 2 * (TOUCH_TARGET - 2) + 4 + 9,
              },
            },
          },
        },
      },
    },
  });
}

/** The dark-mode choice, kept locally (docs/requirements/administration.md#theme). */
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
