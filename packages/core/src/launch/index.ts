export * from './dashboard';
export * from './schemas';
export * from './status-store';
