export * from './campaigns';
export * from './contacts';
export * from './rules';
export * from './schemas';
