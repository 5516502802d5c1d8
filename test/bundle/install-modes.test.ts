import { InstallMode, InstallModeFailureReason, InstallModes, InstallModeType } from '../../src/bundle/install-modes';

const { OWN_NAMESPACE: OWN, SINGLE_NAMESPACE: SINGLE, MULTI_NAMESPACE: MULTI, ALL_NAMESPACES: ALL } = InstallModeType;

function set(own?: boolean, single?: boolean, multi?: boolean, all?: boolean): InstallMode[] {
  const out: InstallMode[] = [];
  if (own !== undefined) out.push({ type: OWN, supported: own });
  if (single !== undefined) out.push({ type: SINGLE, supported: single });
  if (multi !== undefined) out.push({ type: MULTI, supported: multi });
  if (all !== undefined) out.push({ type: ALL, supported: all });
  return out;
}

// Ported case by case from operator-framework/api pkg/operators/v1alpha1/clusterserviceversion_test.go TestSupports.
const table: Array<{ description: string; modes: InstallMode[]; operatorNamespace: string; namespaces: string[]; expectedErr?: string }> = [
  { description: 'NoNamespaces', modes: set(true, true, true, true), operatorNamespace: 'operators', namespaces: [], expectedErr: 'operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces' },
  { description: 'OwnNamespace/OperatorNamespace/Supported', modes: set(true, false, false, false), operatorNamespace: 'operators', namespaces: ['operators'] },
  { description: 'SingleNamespace/OtherNamespace/Supported', modes: set(false, true, false, false), operatorNamespace: 'operators', namespaces: ['ns-0'] },
  { description: 'MultiNamespace/OtherNamespaces/Supported', modes: set(false, false, true, false), operatorNamespace: 'operators', namespaces: ['ns-0', 'ns-2'] },
  { description: 'AllNamespaces/NamespaceAll/Supported', modes: set(false, false, false, true), operatorNamespace: 'operators', namespaces: [''] },
  { description: 'OwnNamespace/OperatorNamespace/Unsupported', modes: set(false, true, true, true), operatorNamespace: 'operators', namespaces: ['operators'], expectedErr: 'OwnNamespace InstallModeType not supported, cannot configure to watch own namespace' },
  { description: 'OwnNamespace/IncludesOperatorNamespace/Unsupported', modes: set(false, true, true, true), operatorNamespace: 'operators', namespaces: ['ns-0', 'operators'], expectedErr: 'OwnNamespace InstallModeType not supported, cannot configure to watch own namespace' },
  { description: 'MultiNamespace/OtherNamespaces/Unsupported', modes: set(true, true, false, true), operatorNamespace: 'operators', namespaces: ['ns-0', 'ns-1'], expectedErr: 'MultiNamespace InstallModeType not supported, cannot configure to watch 2 namespaces' },
  { description: 'SingleNamespace/OtherNamespace/Unsupported', modes: set(true, false, true, true), operatorNamespace: 'operators', namespaces: ['ns-0'], expectedErr: 'SingleNamespace InstallModeType not supported, cannot configure to watch one namespace' },
  { description: 'AllNamespaces/NamespaceAll/Unsupported', modes: set(true, true, true, false), operatorNamespace: 'operators', namespaces: [''], expectedErr: 'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces' },
  { description: 'AllNamespaces/IncludingNamespaceAll/Unsupported', modes: set(true, true, true, true), operatorNamespace: 'operators', namespaces: ['', 'ns-0'], expectedErr: 'operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1' },
  { description: 'NoNamespaces/EmptyInstallModeSet/Unsupported', modes: [], operatorNamespace: '', namespaces: [], expectedErr: 'operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces' },
  { description: 'MultiNamespace/OtherNamespaces/EmptyInstallModeSet/Unsupported', modes: [], operatorNamespace: 'operators', namespaces: ['ns-0', 'ns-1'], expectedErr: 'MultiNamespace InstallModeType not supported, cannot configure to watch 2 namespaces' },
  { description: 'SingleNamespace/OtherNamespace/EmptyInstallModeSet/Unsupported', modes: [], operatorNamespace: 'operators', namespaces: ['ns-0'], expectedErr: 'SingleNamespace InstallModeType not supported, cannot configure to watch one namespace' },
  { description: 'AllNamespaces/NamespaceAll/EmptyInstallModeSet/Unsupported', modes: [], operatorNamespace: 'operators', namespaces: [''], expectedErr: 'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces' },
];

describe('InstallModes.supports (operator-framework/api TestSupports)', () => {
  test.each(table)('$description', ({ modes, operatorNamespace, namespaces, expectedErr }) => {
    // WHEN
    const result = InstallModes.supports(modes, operatorNamespace, namespaces);
    // THEN
    if (expectedErr === undefined) {
      expect(result).toEqual({ supported: true });
    } else {
      expect(result).toEqual({ supported: false, reason: InstallModeFailureReason.UNSUPPORTED_OPERATOR_GROUP, message: expectedErr });
    }
  });
});

describe('InstallModes', () => {
  test('duplicate types are InvalidInstallModes (NewInstallModeSet)', () => {
    // GIVEN a list with OwnNamespace twice
    const modes = [{ type: OWN, supported: true }, { type: OWN, supported: false }];
    // WHEN / THEN
    expect(InstallModes.supports(modes, 'a', ['a'])).toEqual({
      supported: false,
      reason: InstallModeFailureReason.INVALID_INSTALL_MODES,
      message: 'InstallMode list contains duplicates, cannot make set: [{OwnNamespace true} {OwnNamespace false}]',
    });
  });

  test('an empty target list means AllNamespaces ([""])', () => {
    expect(InstallModes.operatorGroupNamespaces([])).toEqual(['']);
    expect(InstallModes.operatorGroupNamespaces(['b', 'a', 'b'])).toEqual(['a', 'b']);
    expect(InstallModes.checkTargets(set(true, true, false, false), 'team-a', [])).toEqual({
      supported: false,
      reason: InstallModeFailureReason.UNSUPPORTED_OPERATOR_GROUP,
      message: 'AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces',
    });
    expect(InstallModes.checkTargets(set(true, false, false, false), 'team-a', ['team-a'])).toEqual({ supported: true });
  });

  test('parseType accepts exactly the four CSV spellings', () => {
    expect(InstallModes.parseType('OwnNamespace')).toEqual(OWN);
    expect(InstallModes.parseType('AllNamespaces')).toEqual(ALL);
    expect(InstallModes.parseType('allnamespaces')).toBeUndefined();
  });
});
