export * from './campaign-tracking';
export * from './campaigns';
export * from './contacts';
export * from './rules';
export * from './schemas';
export * from './sequences';
export * from './whatsapp-templates';
