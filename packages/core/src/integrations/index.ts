export * from './schemas';
export * from './status';
