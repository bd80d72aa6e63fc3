import type { WriteTx } from '../store/port.js';
import type { SiteRecord, SiteSpaceRecord } from './model.js';

export type Settings = Record<string, any>;

/**
 * The customization of a site nobody has customized yet: a complete SiteCustomizationSettings
 * (the contract requires every section, the deprecated ones included), with the neutral choices.
 */
export function defaultCustomization(): Settings {
  const color = (c: string) => ({ light: c, dark: c });
  return {
    styling: {
      theme: 'clean',
      primaryColor: color('#346ddb'),
      infoColor: color('#787878'),
      successColor: color('#00c950'),
      warningColor: color('#fe9a00'),
      dangerColor: color('#fb2c36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

export const siteCustomization = (site: SiteRecord): Settings => site.customization ?? defaultCustomization();

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Applies an override onto settings: objects merge key by key, anything else (arrays, strings,
 * colors given whole) replaces, and `null` removes the override so the site's value shows again.
 */
export function mergeOverride(base: Settings, override: Settings | undefined): Settings {
  if (!override) return base;
  const out: Settings = { ...base };
  for (const [k, v] of Object.entries(override)) {
    if (v === null) continue;
    // Colors ({light, dark}) and favicons are values, not sections: they replace.
    out[k] = isObject(v) && isObject(base[k]) && !('light' in v) && k !== 'favicon' ? mergeOverride(base[k], v) : v;
  }
  return out;
}

/** Folds a PATCH of overrides into the stored ones: null removes a stored override. */
export function foldOverride(stored: Settings | undefined, patch: Settings): Settings | undefined {
  const out: Settings = { ...(stored ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v) && isObject(out[k]) && !('light' in v) && k !== 'favicon') {
      const inner = foldOverride(out[k], v);
      if (inner && Object.keys(inner).length) out[k] = inner;
      else delete out[k];
    } else out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The settings a site space shows: the site's with its overrides applied. */
export const siteSpaceCustomization = (site: SiteRecord, ss: SiteSpaceRecord): Settings => mergeOverride(siteCustomization(site), ss.customization);

export function putSiteSpaceOverride(tx: WriteTx, ss: SiteSpaceRecord, patch: Settings): SiteSpaceRecord {
  const customization = foldOverride(ss.customization, patch);
  const next: SiteSpaceRecord = { ...ss };
  if (customization) next.customization = customization;
  else delete next.customization;
  return tx.put('siteSpaces', next);
}
