export * from './capabilities';
export * from './catalog';
export * from './credit-packs';
export * from './format';
export * from './plan-change';
export * from './pricing';
export * from './promotions';
export * from './schemas';
