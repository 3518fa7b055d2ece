export * from './constants';
export * from './defaults';
export * from './schemas';
export * from './validation';
