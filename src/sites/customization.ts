import type { WriteTx } from '../store/port.js';
import type { SiteRecord, SiteSpaceRecord } from './model.js';
import { SiteSpaces } from './tables.js';

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
      // The themes code blocks are highlighted with (shiki's), in the page and in OpenAPI blocks.
      codeTheme: { default: { ...CODE_THEME }, openapi: { ...CODE_THEME } },
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
    pageActions: { externalAI: true, markdown: true, mcp: true, items: [...DEFAULT_PAGE_ACTIONS] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
    socialAccounts: [],
  };
}

/** What the published site highlights code with when nothing else is chosen. */
const CODE_THEME = { light: 'github-light', dark: 'github-dark' };

/**
 * Page actions (0.202.0's `pageActions.items`): the ordered list of actions of a page's menu, the
 * first one the main button; an action not listed is off. 0.146.0 says the same with three
 * booleans (externalAI, markdown, mcp): both are kept, and agree (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract).
 */
export const DEFAULT_PAGE_ACTIONS = ['markdown', 'external-ai', 'mcp'] as const;
const ACTION_OF = { externalAI: 'external-ai', markdown: 'markdown', mcp: 'mcp' } as const;
type Flag = keyof typeof ACTION_OF;

/** `{items, externalAI, markdown, mcp}` agreeing with each other. */
function pageActionsFrom(items: readonly string[]): Settings {
  return { externalAI: items.includes('external-ai'), markdown: items.includes('markdown'), mcp: items.includes('mcp'), items: [...items] };
}

/**
 * The page actions a write asks for. `items`, when given, says it, except for a boolean the
 * client changed from what `before` says (a 0.146.0 client edits the booleans and sends the list
 * back untouched): that action is added (at the end) or removed. Only booleans: they apply onto
 * `before`'s list. Neither: `before`.
 */
export function resolvePageActions(given: Settings | undefined, before: Settings): Settings {
  const prev = pageActionsFrom(Array.isArray(before.items) ? before.items : DEFAULT_PAGE_ACTIONS);
  if (!given) return prev;
  let items: string[] = Array.isArray(given.items) ? [...given.items] : [...prev.items];
  for (const flag of Object.keys(ACTION_OF) as Flag[]) {
    const want = given[flag];
    if (typeof want !== 'boolean' || (Array.isArray(given.items) && want === prev[flag])) continue;
    const action = ACTION_OF[flag];
    if (want && !items.includes(action)) items.push(action);
    if (!want) items = items.filter((a) => a !== action);
  }
  return pageActionsFrom(items);
}

/**
 * Settings complete under both specs: a section a client of either version left out (0.202.0
 * dropped `pdf` and `git`, 0.146.0 lacks `socialAccounts`, `styling.codeTheme`,
 * `pageActions.items`) shows its default, and the page actions agree.
 */
export function completeCustomization(settings: Settings): Settings {
  const d = defaultCustomization();
  const out: Settings = { ...d, ...settings, styling: { ...d.styling, ...settings.styling } };
  out.pageActions = resolvePageActions(settings.pageActions, d.pageActions);
  return out;
}

/** The customization to store for a PUT: complete, its page actions resolved against the stored ones. */
export function customizationToStore(body: Settings, site: SiteRecord): Settings {
  const out = completeCustomization(body);
  out.pageActions = resolvePageActions(body.pageActions, siteCustomization(site).pageActions);
  return out;
}

export const siteCustomization = (site: SiteRecord): Settings => completeCustomization(site.customization ?? {});

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
export const siteSpaceCustomization = (site: SiteRecord, ss: SiteSpaceRecord): Settings =>
  completeCustomization(mergeOverride(siteCustomization(site), ss.customization));

export function putSiteSpaceOverride(tx: WriteTx, ss: SiteSpaceRecord, patch: Settings): SiteSpaceRecord {
  const customization = foldOverride(ss.customization, patch);
  const next: SiteSpaceRecord = { ...ss };
  if (customization) next.customization = customization;
  else delete next.customization;
  return tx.put(SiteSpaces, next);
}
