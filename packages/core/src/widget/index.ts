export * from './constants';
export * from './defaults';
export * from './i18n';
export * from './inbox';
export * from './schemas';
export * from './time';
