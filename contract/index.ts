export * from './limits';
export * from './common';
export * from './question-sets';
export * from './user';
export * from './interview';
export * from './admin';
export * from './config';
