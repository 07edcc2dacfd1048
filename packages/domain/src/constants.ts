/** Business constants in docs/requirements/administration.md#constants, docs/requirements/orders.md#order-constants. */
export const SCHEDULER_INTERVAL_MS = 10_000;
export const BACKEND_VERSION_INTERVAL_MS = 3_600_000;
export const FRONTEND_VERSION_INTERVAL_MS = 20_000;
export const IMPORT_VALIDATION_POLL_MS = 2_000;
export const SNACKBAR_TIMEOUT_MS = 5_000;
export const DRAWER_WIDTH = 260;
export const DRAWER_MINI_WIDTH = 100;
export const PRIMARY_COLOR = '#005087';
export const VERSION_DISPLAY_LENGTH = 8;
export const USERNAME_MIN_LENGTH = 3;
export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_ADDRESSES_MIN = 1;
export const EMAIL_ADDRESSES_MAX = 10;
export const API_BASE = '/api/v1';
/** The value list of the contractors: an order stores the code, screens and documents show its text. */
export const CONTRACTOR_LIST = 'ListAuftraggeber';
/**
 * The largest PostgreSQL `integer`: serial ids and activity counters. A bigger number names no row, and PostgreSQL
 * refuses to compare one with an `integer` column (an error, not "no row"), so requests are held to it.
 */
export const MAX_DB_INTEGER = 2_147_483_647;

/**
 * Local-storage keys (docs/requirements/administration.md#local-storage: session, language, toggles, backend version,
 * dark mode).
 */
export const STORAGE_KEYS = {
  user: 'vers-user',
  toggles: 'vers-toggles',
  backendVersion: 'vers-backend-version',
  darkMode: 'vers-dark-mode',
} as const;
