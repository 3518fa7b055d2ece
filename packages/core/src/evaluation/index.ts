export * from './checks';
export * from './constants';
export * from './defaults';
export * from './red-team';
export * from './schemas';
export * from './validation';
