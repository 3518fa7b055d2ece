export * from './apply';
export * from './diff';
export * from './offline-review';
export * from './schemas';
