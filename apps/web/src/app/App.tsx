import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { createRouter } from './router.tsx';
import { ThemeChoiceContext } from './theme-context.ts';
import { useAppTheme, useDarkMode } from './theme.ts';

export function App() {
  const [dark, setDark] = useDarkMode();
  const theme = useAppTheme(dark);
  const router = useMemo(() => createRouter(), []);
  const choice = useMemo(() => ({ dark, setDark }), [dark, setDark]);
  return (
    <ThemeChoiceContext.Provider value={choice}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <RouterProvider router={router} />
      </ThemeProvider>
    </ThemeChoiceContext.Provider>
  );
}
