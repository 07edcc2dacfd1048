import { createContext, useContext } from 'react';

export const ThemeChoiceContext = createContext<{ dark: boolean; setDark: (dark: boolean) => void }>({
  dark: false,
  setDark: () => {},
});

export const useThemeChoice = () => useContext(ThemeChoiceContext);
