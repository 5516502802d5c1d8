// A finding without its severity: what every check returns (apart from diagnostics.ts, which needs the policy registry).

/** Input to `Diagnostics.format`: a finding without its severity. */
export interface DiagnosticDetails {
  /** Stable machine-readable code. */
  readonly code: string;
  /**
   * The field (prop or option) that holds the problem.
   * @default - the construct as a whole
   */
  readonly field?: string;
  /**
   * The offending value.
   * @default - no single value
   */
  readonly value?: string;
  /** What is wrong. */
  readonly message: string;
  /**
   * How to fix it.
   * @default - no suggestion
   */
  readonly fix?: string;
  /**
   * The prop that accepted the finding by name with a reason (e.g. `acceptedReach`): the finding is a decision that
   * was taken, reported apart from the open warnings (TENANCY.md "Accepted risks"), with no fix.
   * @default - not accepted: an open finding
   */
  readonly acceptedBy?: string;
  /**
   * The reason given with `acceptedBy`.
   * @default - not accepted
   */
  readonly acceptedReason?: string;
}
