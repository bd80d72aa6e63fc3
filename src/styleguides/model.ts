// Style guides (docs/manual/styleguides.md): a site's writing rules, kept in a space of type
// `styleguide`, and the check runs made over the site's pages against them.

/** One place a page breaks a rule of the style guide. */
export interface StyleguideFinding {
  space: string;
  page: string;
  /** Which rule: a term to avoid, a heading's case, a sentence's length. */
  rule: 'term' | 'heading' | 'sentence-length';
  /** The line of the page's markdown (1-based). */
  line: number;
  message: string;
}

/** A check run: the spaces checked against the site's style guide, what was found, the change requests it fixed terms in. */
export interface StyleguideRunRecord {
  id: string;
  organization: string;
  site: string;
  /** The style guide space checked against. */
  styleguide: string;
  spaces: string[];
  createdAt: string;
  createdBy: string;
  /** At most STYLEGUIDE_LIMITS.findings, in page order. */
  findings: StyleguideFinding[];
  /** How many findings there were in all (beyond the ones kept). */
  findingsTotal: number;
  /** The change request of each space checked (opened by this run, or taken over). */
  changeRequests: { space: string; changeRequest: string; changedPages: number }[];
}

export const STYLEGUIDE_LIMITS = {
  /** Findings kept per run. */
  findings: 500,
  /** Runs kept per site (the oldest dropped beyond). */
  runs: 100,
};
