export * from './roles.ts';
export * from './routes.ts';
export * from './languages.ts';
export * from './dates.ts';
export * from './constants.ts';
export * from './contract/errors.ts';
export * from './contract/auth.ts';
export * from './contract/system.ts';
