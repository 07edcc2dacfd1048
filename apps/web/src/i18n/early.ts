// A second entry of the build, which vite.config.ts (plugin `earlyCatalogue`) adds to index.html as its own
// module script: it starts fetching the language's catalogue while the app's scripts still download, instead of
// after all of them have loaded and run (one round trip less before the first paint on a slow link). The app asks
// for the same chunk (i18n/index.ts) and the browser's module map hands it the one load.
import { initialLanguage, loadStartCatalogue } from './start-catalogue.ts';

// A failure here is the app's to report, when it asks for the catalogue itself.
loadStartCatalogue(initialLanguage()).catch(() => undefined);
