// Package root: re-exports only. Each folder's index says what lives there.
export * as olm from './imports/olm';
export * as openshift from './imports/openshift';
export * from './core';
export * from './rbac';
export * from './olm';
export * from './bundle';
export * from './preflight';
export * from './tenant';
export * from './platform';
export * from './audit';
export * from './catalog';
export * from './blueprint';
export * from './app';
export * from './report';
export * from './upgrade';
export * as olmv1 from './imports/olmv1';
export * from './olmv1';
