export * from './model.ts';
export * from './tabs.ts';
export * from './values.ts';
export * from './resolve.ts';
export * from './layout.ts';
export * from './calculation-groups.ts';
