import * as Flags from '@oclif/core/flags';

/** The ads partner's key (header X-GitBook-Partner-Key): the flag, else DOCS_ADS_PARTNER_KEY. docs/manual/sites.md#ads */
export const partnerKeyFlag = () =>
  Flags.string({ description: "the ads partner's key (X-GitBook-Partner-Key; default: DOCS_ADS_PARTNER_KEY)", env: 'DOCS_ADS_PARTNER_KEY' });

export const partnerHeaders = (flags: Record<string, any>): Record<string, string> =>
  flags['partner-key'] ? { 'X-GitBook-Partner-Key': String(flags['partner-key']) } : {};
