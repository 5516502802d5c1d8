// Operators the platform installs itself for all namespaces (GlobalOperatorInstall) and their permission preview.
export * from './global-operator-permission-preview';
export * from './global-operator-install-props';
export * from './global-operator-install';
