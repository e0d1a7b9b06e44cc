import {
  type CardWarning,
  type ConvertedCard,
  detectCardVersion,
  isObject,
  type JsonObject,
  member,
  objects,
  pick,
  V03_ONLY_FIELDS,
} from '../json/card-json.ts';
import { convertSkills, requirementsFromV03, schemeFromV03 } from './security-shapes.ts';

/** `0.3.0` → `0.3`: v1.0 writes protocol versions as Major.Minor. */
function majorMinor(version: unknown): string {
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
  return match ? `${match[1]}.${match[2]}` : '0.3';
}

/**
 * A v0.3 (or hybrid) card in its v1.0 form. The v0.3 `url` and `additionalInterfaces` become
 * `supportedInterfaces` for protocol 0.3, without duplicates; security moves to the v1.0 oneof form,
 * keeping one OAuth flow where v0.3 allowed several. A hybrid card's own `supportedInterfaces` win
 * over its v0.3 fields. Every lossy step is reported with its path.
 */
export function fromV03(card: JsonObject): ConvertedCard {
  const warnings: CardWarning[] = [];
  const version = detectCardVersion(card);
  if (version === '1.0') return { card: structuredClone(card), warnings };
  const protocolVersion = majorMinor(card.protocolVersion);
  let supportedInterfaces: JsonObject[];
  if (version === 'hybrid') {
    supportedInterfaces = objects(card.supportedInterfaces);
    for (const field of V03_ONLY_FIELDS.filter(
      (name) => name in card && name !== 'security' && name !== 'supportsAuthenticatedExtendedCard',
    )) {
      warnings.push({
        path: `$.${field}`,
        message: 'hybrid card: supportedInterfaces is used, this v0.3 field is ignored',
      });
    }
  } else {
    const seen = new Set<string>();
    supportedInterfaces = [];
    const add = (url: unknown, binding: unknown) => {
      if (typeof url !== 'string' || !url) return;
      const protocolBinding = typeof binding === 'string' && binding ? binding : 'JSONRPC';
      const key = `${protocolBinding} ${url}`;
      if (seen.has(key)) return;
      seen.add(key);
      supportedInterfaces.push({ url, protocolBinding, protocolVersion });
    };
    add(card.url, card.preferredTransport);
    for (const entry of objects(card.additionalInterfaces)) add(entry.url, entry.transport);
    if (supportedInterfaces.length === 0) {
      warnings.push({
        path: '$.url',
        message: 'no url: the v1.0 card has no interface, so no client can reach the agent',
      });
    }
  }
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  if ('stateTransitionHistory' in capabilities) {
    warnings.push({ path: '$.capabilities.stateTransitionHistory', message: 'removed in v1.0; left out' });
  }
  const securitySchemes: JsonObject = {};
  for (const [name, scheme] of Object.entries(isObject(card.securitySchemes) ? card.securitySchemes : {})) {
    const converted = schemeFromV03(scheme, member('$.securitySchemes', name), warnings);
    if (converted) securitySchemes[name] = converted;
  }
  if (objects(card.signatures).length > 0) {
    warnings.push({
      path: '$.signatures',
      message: 'signatures are bound to the v0.3 shape and would not verify; left out',
    });
  }
  const out: JsonObject = {
    ...pick(card, ['name', 'description']),
    supportedInterfaces,
    ...pick(card, ['provider', 'version', 'documentationUrl']),
    capabilities: {
      ...pick(capabilities, ['streaming', 'pushNotifications', 'extensions']),
      ...(card.supportsAuthenticatedExtendedCard === true || capabilities.extendedAgentCard === true
        ? { extendedAgentCard: true }
        : {}),
    },
    ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    ...(objects(card.security).length > 0
      ? { securityRequirements: requirementsFromV03(card.security) }
      : {}),
    defaultInputModes: card.defaultInputModes ?? [],
    defaultOutputModes: card.defaultOutputModes ?? [],
    skills: convertSkills({
      skills: card.skills,
      from: 'security',
      to: 'securityRequirements',
      convert: requirementsFromV03,
    }),
    ...pick(card, ['iconUrl']),
  };
  return { card: out, warnings };
}
