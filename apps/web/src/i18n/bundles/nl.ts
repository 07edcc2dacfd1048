// The 'nl' catalogues the app needs from its start, merged into one chunk (see ../start-catalogue.ts); the
// deferred features' catalogues (DEFERRED_LOADERS there) stay out. No imports: the chunk must need no other.
const parts = import.meta.glob<Record<string, unknown>>(
  ['../locales/nl.json', '../../features/*/locales/nl.json', '!../../features/catalogue/**', '!../../features/scan/**'],
  { eager: true, import: 'default' },
);

export default Object.assign({}, ...Object.values(parts)) as Record<string, unknown>;
